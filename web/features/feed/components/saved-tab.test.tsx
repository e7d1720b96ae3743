import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { type Item, OWN_LIST_PAGE_SIZE } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { SavedTab } from './saved-tab';

const item = (id: number): Item => ({
  id,
  title: `Item ${id}`,
  description: `Description ${id}`,
  category: 'tools',
  isService: false,
  imageUrl: null,
  thumbnailUrl: null,
  estimatedValue: null,
  isActive: true,
  moderation: null,
  isReserved: false,
  traded: null,
  allowedActions: ['edit', 'hide', 'delete'],
  viewCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** A server holding `total` rows (ids total..1, newest first) that pages like GET /api/{items,wants}/my. */
function stubList<T>(path: string, total: number, make: (id: number) => T) {
  const all = Array.from({ length: total }, (_, index) => make(total - index));
  server.use(
    http.get(path, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const limit = Number(query.get('limit'));
      const offset = Number(query.get('offset'));
      return pagedJson(all.slice(offset, offset + limit), total);
    }),
  );
  // Every request the tab sends (only `path` is answered: anything else fails the test).
  return recordRequests();
}

describe('The Saved tab pages like the member’s own lists', () => {
  it('pages the Saved tab the same way, with the server’s count', async () => {
    const total = OWN_LIST_PAGE_SIZE + 2;
    const card = (id: number) => ({
      ...item(id),
      isSaved: true,
      distanceMiles: null,
      user: { firstName: 'Ann', lastName: 'Lee', profileImageUrl: null },
      owner: { completedTrades: 0, rating: null },
      lookingFor: [],
    });
    const requested = stubList('/api/saved-items', total, card);
    renderWithProviders(<SavedTab />);
    expect(await screen.findByRole('heading', { name: `Saved Items (${total})` })).toBeInTheDocument();
    expect(await screen.findByText(`Item ${total}`)).toBeInTheDocument();
    expect(screen.queryByText('Item 1')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load More Items' }));
    expect(await screen.findByText('Item 1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More Items' })).not.toBeInTheDocument();
    expect(requested.sent.map((request) => request.url)).toEqual([
      `/api/saved-items?limit=${OWN_LIST_PAGE_SIZE}&offset=0`,
      `/api/saved-items?limit=${OWN_LIST_PAGE_SIZE}&offset=${OWN_LIST_PAGE_SIZE}`,
    ]);
  });
});
