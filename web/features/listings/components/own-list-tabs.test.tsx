import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { type Item, OWN_LIST_PAGE_SIZE, type Want } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { MyItemsTab } from './my-items-tab';
import { WantListTab } from './want-list-tab';

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

const want = (id: number): Want => ({
  id,
  title: `Want ${id}`,
  description: null,
  category: 'tools',
  isService: false,
  maxValue: null,
  fulfilledAt: null,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
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

// Over a hundred rows with buttons render slowly in jsdom on a busy machine: a roomier test timeout.
describe('My Items and Want List page through the member’s listings', { timeout: 20_000 }, () => {
  it('shows the server’s total, the first page, and loads the rest with Load More Items', async () => {
    const total = OWN_LIST_PAGE_SIZE + 12;
    const requested = stubList('/api/items/my', total, item);
    renderWithProviders(<MyItemsTab />);

    expect(await screen.findByRole('heading', { name: `My Items (${total})` })).toBeInTheDocument();
    expect(await screen.findByText(`Item ${total}`)).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(OWN_LIST_PAGE_SIZE);
    expect(screen.queryByText('Item 1')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Load More Items' }));
    expect(await screen.findByText('Item 1')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(total);
    // Everything is loaded: no more button, and the count did not change.
    expect(screen.queryByRole('button', { name: 'Load More Items' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: `My Items (${total})` })).toBeInTheDocument();
    expect(requested.sent.map((request) => request.url)).toEqual([
      `/api/items/my?limit=${OWN_LIST_PAGE_SIZE}&offset=0`,
      `/api/items/my?limit=${OWN_LIST_PAGE_SIZE}&offset=${OWN_LIST_PAGE_SIZE}`,
    ]);
  });

  it('offers no Load More when one page holds everything', async () => {
    stubList('/api/items/my', 3, item);
    renderWithProviders(<MyItemsTab />);
    expect(await screen.findByText('Item 3')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'My Items (3)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Load More/ })).not.toBeInTheDocument();
  });

  it('pages the want list the same way, counting every want on the server', async () => {
    const total = OWN_LIST_PAGE_SIZE * 2 + 1;
    stubList('/api/wants/my', total, want);
    // Nothing to ask after a trade (the Want List asks "Did this fill your want?" on a want's row).
    server.use(http.get('/api/wants/questions', () => HttpResponse.json([])));
    renderWithProviders(<WantListTab />);

    expect(await screen.findByRole('heading', { name: `Want List (${total})` })).toBeInTheDocument();
    expect(await screen.findByText(`Want ${total}`)).toBeInTheDocument();
    for (let page = 1; page <= 2; page++) {
      await userEvent.click(screen.getByRole('button', { name: 'Load More Wants' }));
      await waitFor(() =>
        expect(screen.getAllByRole('listitem')).toHaveLength(
          Math.min(total, OWN_LIST_PAGE_SIZE * (page + 1)),
        ),
      );
    }
    expect(screen.getByText('Want 1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load More Wants' })).not.toBeInTheDocument();
  });
});
