import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Place } from '#common/schemas/places.ts';
import type { PublicSpot } from '#common/schemas/public-spots.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { PublicSpotsPanel } from './public-spots';

// The moderators' list of public spots for hand-overs (issue 30, ADR 080).

const URL = '/api/moderation/public-spots';
const BELMONT: Place = {
  id: 'curated:portland-or-belmont-district',
  displayName: 'Belmont District, Portland, Oregon, United States',
  latitude: 45.5165,
  longitude: -122.62,
};

const spot = (overrides: Partial<PublicSpot> = {}): PublicSpot => ({
  id: 1,
  name: 'Belmont Library',
  kind: 'library',
  area: 'Portland, Oregon, United States',
  place: BELMONT.displayName,
  latitude: BELMONT.latitude,
  longitude: BELMONT.longitude,
  source: 'https://www.multcolib.org/locations/belmont',
  addedBy: 'Mona M.',
  addedAt: '2026-11-28T10:00:00.000Z',
  ...overrides,
});

describe('PublicSpotsPanel', () => {
  it('starts empty; a spot is added by keyboard with its source and a place chosen in the search', async () => {
    let spots: PublicSpot[] = [];
    server.use(
      http.get(URL, () => HttpResponse.json(spots)),
      http.post(URL, () => {
        spots = [spot()];
        return HttpResponse.json(spots[0], { status: 201 });
      }),
      http.get('/api/places/search', () => HttpResponse.json([BELMONT])),
    );
    const requests = recordRequests();
    renderWithProviders(<PublicSpotsPanel />, { path: '/moderation' });
    expect(await screen.findByText('No public spots yet.')).toBeInTheDocument();
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Add a public spot' });

    // Nothing is sent without a name, a kind, a source and a chosen place.
    await user.click(within(form).getByRole('button', { name: 'Add this spot' }));
    expect((await within(form).findAllByRole('alert')).map((alert) => alert.textContent)).toEqual([
      'Name the spot.',
      'Choose what kind of spot it is.',
      'Choose the spot’s place from the search.',
      'Say where this spot comes from: a link or a citation.',
    ]);
    expect(requests.to(`POST ${URL}`)).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Belmont Library');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind' }), 'Library');
    await user.type(within(form).getByRole('combobox', { name: 'Where it is' }), 'Belmont');
    await user.click(await screen.findByRole('option', { name: BELMONT.displayName }));
    await user.type(
      within(form).getByRole('textbox', { name: 'Source (a link or a citation)' }),
      'https://www.multcolib.org/locations/belmont',
    );
    await user.keyboard('{Enter}');

    const list = await screen.findByRole('list', { name: 'Public spots' });
    expect(within(list).getByText('Belmont Library')).toBeInTheDocument();
    expect(
      within(list).getByRole('link', { name: 'https://www.multcolib.org/locations/belmont' }),
    ).toBeVisible();
    expect(await requests.bodiesOf(`POST ${URL}`)).toEqual([
      {
        name: 'Belmont Library',
        kind: 'library',
        source: 'https://www.multcolib.org/locations/belmont',
        place: { displayName: BELMONT.displayName, latitude: BELMONT.latitude, longitude: BELMONT.longitude },
      },
    ]);
  });

  it('corrects a spot by keyboard: the same form, filled, in its place; Cancel and Save bring the keyboard back', async () => {
    let spots: PublicSpot[] = [spot({ name: 'Belmont Librery', kind: 'other', source: 'Cited: a flyer' })];
    server.use(
      http.get(URL, () => HttpResponse.json(spots)),
      http.put(`${URL}/:id`, async ({ request }) => {
        const body = (await request.json()) as {
          name: string;
          source: string;
          place: { displayName: string };
        };
        spots = [
          spot({ name: body.name, kind: 'library', source: body.source, place: body.place.displayName }),
        ];
        return HttpResponse.json(spots[0]);
      }),
    );
    const requests = recordRequests();
    renderWithProviders(<PublicSpotsPanel />, { path: '/moderation' });
    const user = userEvent.setup();
    const editButton = await screen.findByRole('button', { name: 'Edit Belmont Librery' });

    // Cancel changes nothing and gives the keyboard back to Edit.
    editButton.focus();
    await user.keyboard('{Enter}');
    let form = screen.getByRole('form', { name: 'Edit Belmont Librery' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit Belmont Librery' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Belmont Librery' })).toHaveFocus();

    await user.keyboard('{Enter}');
    form = screen.getByRole('form', { name: 'Edit Belmont Librery' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();
    expect(name).toHaveValue('Belmont Librery');
    expect(within(form).getByRole('combobox', { name: 'Kind' })).toHaveValue('other');
    expect(within(form).getByRole('combobox', { name: 'Where it is' })).toHaveValue(BELMONT.displayName);
    expect(within(form).getByRole('textbox', { name: 'Source (a link or a citation)' })).toHaveValue(
      'Cited: a flyer',
    );

    // A blank name is refused here, as when adding.
    await user.clear(name);
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Name the spot.');
    expect(requests.to(`PUT ${URL}/1`)).toHaveLength(0);

    await user.type(name, 'Belmont Library');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Kind' }), 'Library');
    const source = within(form).getByRole('textbox', { name: 'Source (a link or a citation)' });
    await user.clear(source);
    await user.type(source, 'https://www.multcolib.org/locations/belmont');
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('button', { name: 'Edit Belmont Library' })).toHaveFocus();
    expect(await requests.bodiesOf(`PUT ${URL}/1`)).toEqual([
      {
        name: 'Belmont Library',
        kind: 'library',
        source: 'https://www.multcolib.org/locations/belmont',
        // The place stays the one chosen before until another is chosen in the search.
        place: { displayName: BELMONT.displayName, latitude: BELMONT.latitude, longitude: BELMONT.longitude },
      },
    ]);
    const list = screen.getByRole('list', { name: 'Public spots' });
    expect(
      within(list).getByRole('link', { name: 'https://www.multcolib.org/locations/belmont' }),
    ).toBeVisible();
  });

  it('a refused correction keeps the form open and says why', async () => {
    server.use(
      http.get(URL, () => HttpResponse.json([spot()])),
      http.put(`${URL}/:id`, () =>
        HttpResponse.json(
          { message: 'This spot is not on the list (removed already?).', code: 'NOT_FOUND' },
          { status: 404 },
        ),
      ),
    );
    renderWithProviders(<PublicSpotsPanel />, { path: '/moderation' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Belmont Library' }));
    const form = screen.getByRole('form', { name: 'Edit Belmont Library' });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('This spot is not on the list (removed already?).')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Edit Belmont Library' })).toBeInTheDocument();
  });

  it('removes a spot', async () => {
    let spots: PublicSpot[] = [
      spot(),
      spot({ id: 2, name: 'Hawthorne Café', kind: 'cafe', source: 'Cited: city guide' }),
    ];
    server.use(
      http.get(URL, () => HttpResponse.json(spots)),
      http.delete(`${URL}/:id`, ({ params }) => {
        spots = spots.filter((s) => String(s.id) !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const requests = recordRequests();
    renderWithProviders(<PublicSpotsPanel />, { path: '/moderation' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove Hawthorne Café' }));
    await screen.findByText('Spot removed');
    expect(screen.queryByText('Hawthorne Café')).not.toBeInTheDocument();
    expect(requests.to(`DELETE ${URL}/2`)).toHaveLength(1);
    expect(screen.getByText('Belmont Library')).toBeInTheDocument();
  });
});
