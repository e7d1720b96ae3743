import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Item } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { MyItemsTab } from './my-items-tab';

const item = (id: number, overrides: Partial<Item>): Item => ({
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
  ...overrides,
});

const RESERVED_MESSAGE = 'This item is reserved in an accepted barter. Cancel the barter first.';

/** GET /api/items/my answers `items`; DELETE of item 1 is refused as the server does once a barter holds it. */
function stubServer(items: Item[]) {
  server.use(
    http.get('/api/items/my', () => pagedJson(items)),
    http.delete('/api/items/1', () => errorJson(409, RESERVED_MESSAGE, 'CONFLICT')),
  );
  return recordRequests();
}

describe('My Items: what an item offers comes from the server (issue 27)', () => {
  it('offers no Edit, Hide or Delete for an item an accepted barter holds, and says why', async () => {
    stubServer([
      item(2, { isReserved: true, allowedActions: [] }),
      item(1, {}),
      item(3, { isActive: false, allowedActions: ['edit', 'show', 'delete'] }),
    ]);
    renderWithProviders(<MyItemsTab />);
    const [reserved, free, hidden] = (await screen.findAllByRole('listitem')) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];

    expect(within(reserved).queryAllByRole('button')).toEqual([]);
    expect(within(reserved).getByText('Reserved in a barter')).toBeInTheDocument();
    expect(within(reserved).getByText(/can't be changed, hidden or deleted/)).toBeInTheDocument();
    expect(
      within(free)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Edit Item 1', 'Hide Item 1', 'Delete Item 1']);
    expect(within(hidden).getByRole('button', { name: 'Show Item 3' })).toBeInTheDocument();
    expect(within(free).queryByText(/can't be changed/)).not.toBeInTheDocument();
  });

  it('shows the server’s reason when it refuses anyway (a barter accepted meanwhile)', async () => {
    const sent = stubServer([item(1, {})]);
    renderWithProviders(<MyItemsTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Item 1' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Item' }));
    expect(await screen.findByText(RESERVED_MESSAGE)).toBeInTheDocument();
    expect(sent.to('DELETE /api/items/1')).toHaveLength(1);
  });
});
