import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SavedSearch } from '#common/schemas/alerts.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { SavedSearchesSection } from './saved-searches-section';

const search = (id: number, name: string, q: string | null, radius: number): SavedSearch => ({
  id,
  name,
  feed: 'everything',
  q,
  radius,
  condition: null,
  createdAt: '2026-11-28T10:00:00.000Z',
});

describe("the Account tab's saved searches (ADR 084)", () => {
  it('lists each search with what it looks for and how far, and removes one', async () => {
    const api = recordRequests();
    let rows = [search(2, 'Guitars', 'guitar', 10), search(1, 'Anything near', null, 5)];
    server.use(
      http.get('/api/saved-searches', () => HttpResponse.json(rows)),
      http.delete('/api/saved-searches/:id', ({ params }) => {
        rows = rows.filter((row) => row.id !== Number(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<SavedSearchesSection />);
    expect(await screen.findByText('Guitars')).toBeInTheDocument();
    expect(screen.getByText('"guitar" within 10 miles')).toBeInTheDocument();
    expect(screen.getByText('Every new listing within 5 miles')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove saved search Guitars' }));
    await waitFor(() => expect(screen.queryByText('Guitars')).not.toBeInTheDocument());
    expect(api.to('DELETE /api/saved-searches/2')).toHaveLength(1);
    expect(screen.getByText('Anything near')).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    server.use(http.get('/api/saved-searches', () => HttpResponse.json([])));
    renderWithProviders(<SavedSearchesSection />);
    expect(await screen.findByText('No saved searches yet.')).toBeInTheDocument();
  });
});
