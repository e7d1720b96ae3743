import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { GettingStarted as Steps } from '#common/schemas/getting-started.ts';
import { AddItemProvider } from '#web/components/feature-slots.tsx';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { GettingStarted } from './getting-started';

const user: CurrentUser = {
  id: 'u1',
  firstName: 'Nia',
  lastName: 'Lee',
  email: 'nia@example.com',
  location: null,
  latitude: null,
  longitude: null,
  maxTravelDistance: 25,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: false,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

const nothingDone: Steps = { area: false, want: false, item: false, completed: false };

function render(steps: Steps, ...handlers: RequestHandler[]) {
  let state = steps;
  server.use(
    // The test's own answers first: msw takes the first handler that matches.
    ...handlers,
    http.get('/api/account/getting-started', () => HttpResponse.json(state)),
    http.put('/api/account/getting-started', async ({ request }) => {
      const call = { body: (await request.json()) as unknown };

      state = { ...state, ...(call.body as { completed: boolean }) };
      return HttpResponse.json(state);
    }),
  );
  const api = recordRequests();
  renderWithProviders(
    <AddItemProvider>
      <GettingStarted user={user} />
    </AddItemProvider>,
  );
  return { api, advance: (next: Partial<Steps>) => Object.assign(state, next) };
}

const guide = () => screen.findByRole('region', { name: 'Get started in three steps' });

describe('GettingStarted', () => {
  it('starts at the area: a place chosen from the suggestions is saved with the travel distance', async () => {
    const { api } = render(
      nothingDone,
      http.get('/api/places/search', () =>
        HttpResponse.json([
          { id: 'zip:97214', displayName: '97214, Portland, Oregon', latitude: 45.51, longitude: -122.64 },
        ]),
      ),
      http.put('/api/user/profile', async ({ request }) => {
        const call = { body: (await request.json()) as unknown };
        return HttpResponse.json({ ...user, ...(call.body as object) });
      }),
      http.get('/api/auth/user', () => HttpResponse.json(user)),
    );
    const region = await guide();
    expect(within(region).getByText('0 of 3 done')).toBeInTheDocument();
    const steps = within(region).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual(['step', null, null]);
    // Saving before choosing a suggestion says what to do.
    await userEvent.click(within(region).getByRole('button', { name: 'Save Area' }));
    expect(within(region).getByText('Choose your area from the suggestions.')).toBeInTheDocument();
    await userEvent.type(within(region).getByLabelText('Your area'), '97214');
    await userEvent.click(await screen.findByRole('option', { name: /97214, Portland, Oregon/ }));
    await userEvent.click(within(region).getByRole('button', { name: 'Save Area' }));
    await vi.waitFor(async () =>
      expect(await api.bodiesOf('PUT /api/user/profile')).toEqual([
        { location: '97214, Portland, Oregon', latitude: 45.51, longitude: -122.64, maxTravelDistance: 25 },
      ]),
    );
    // The guide reads its steps again after the save.
    await vi.waitFor(() => expect(api.to('GET /api/account/getting-started').length).toBeGreaterThan(1));
  });

  it('moves on to the want once the area is set', async () => {
    render({ ...nothingDone, area: true });
    const region = await guide();
    expect(within(region).getByText('1 of 3 done')).toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Add a Want' }));
    expect(await screen.findByRole('dialog', { name: 'Add to Want List' })).toBeInTheDocument();
  });

  it('opens the Add New Item dialog at the third step', async () => {
    render({ area: true, want: true, item: false, completed: false });
    const region = await guide();
    expect(within(region).getByText('2 of 3 done')).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Add a Want' })).not.toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Add an Item' }));
    expect(await screen.findByRole('dialog', { name: 'Add New Item' })).toBeInTheDocument();
  });

  it('Skip for Now puts it away for the member', async () => {
    const { api } = render(nothingDone);
    const region = await guide();
    await userEvent.click(within(region).getByRole('button', { name: 'Skip for Now' }));
    await vi.waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Get started in three steps' })).not.toBeInTheDocument(),
    );
    expect(await api.bodiesOf('PUT /api/account/getting-started')).toEqual([{ completed: true }]);
  });

  it('all done: says so, and Done puts it away', async () => {
    const { api } = render({ area: true, want: true, item: true, completed: false });
    const region = await screen.findByRole('region', { name: 'You are all set' });
    expect(within(region).getByText('3 of 3 done')).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Skip for Now' })).not.toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Done' }));
    await vi.waitFor(() => expect(api.to('PUT /api/account/getting-started')).toHaveLength(1));
  });

  it('shows nothing once put away', async () => {
    const { api } = render({ ...nothingDone, completed: true });
    await vi.waitFor(() => expect(api.to('GET /api/account/getting-started')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: /Get started|all set/ })).not.toBeInTheDocument();
  });
});
