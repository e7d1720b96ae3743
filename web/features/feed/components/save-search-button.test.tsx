import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { SaveSearchButton } from './save-search-button';

describe('Save search (ADR 084)', () => {
  it('saves the feed, the search text and the distance under the name given', async () => {
    const api = recordRequests();
    server.use(
      http.post('/api/saved-searches', async ({ request }) =>
        HttpResponse.json(
          { id: 1, createdAt: new Date().toISOString(), ...((await request.json()) as object) },
          { status: 201 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<SaveSearchButton feed="everything" q="road bike" radius={10} />);
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('road bike');
    await user.clear(name);
    await user.type(name, '  Bikes for the commute ');
    await user.click(within(dialog).getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await api.bodiesOf('POST /api/saved-searches')).toEqual([
      { name: 'Bikes for the commute', feed: 'everything', q: 'road bike', radius: 10 },
    ]);
    expect(await screen.findByText('Search saved')).toBeInTheDocument();
  });

  it('asks for a name, and says why the server refused one (the cap)', async () => {
    const api = recordRequests();
    server.use(
      http.post('/api/saved-searches', () =>
        errorJson(
          409,
          'You can keep up to 20 saved searches. Remove one to save another.',
          'SAVED_SEARCH_LIMIT',
        ),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<SaveSearchButton feed="everything" q="lamp" radius={5} />);
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save search' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(api.to('POST /api/saved-searches')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Lamps');
    await user.click(within(dialog).getByRole('button', { name: 'Save search' }));
    expect(
      await within(dialog).findByText('You can keep up to 20 saved searches. Remove one to save another.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
