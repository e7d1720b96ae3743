import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Item } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { MyItemsTab } from './my-items-tab';

// Stale listings in My Items (issue 31, ADR 088): the open question with its two answers, and a
// listing out of the feeds with why and Renew.

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY - 60_000).toISOString();

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
  confirmedAt: ago(10),
  stale: null,
  viewCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const asked = item(1, {
  title: 'Old ladder',
  confirmedAt: ago(31),
  stale: { askedAt: ago(1), pausedAt: null },
});
const paused = item(2, {
  title: 'Camping tent',
  isActive: false,
  allowedActions: ['edit', 'show', 'delete'],
  confirmedAt: ago(38),
  stale: { askedAt: ago(8), pausedAt: ago(1) },
});
const fresh = item(3, { title: 'New drill' });

function stubServer(items: Item[]) {
  let list = items;
  server.use(
    http.get('/api/items/my', () => pagedJson(list)),
    http.post('/api/items/:id/renew', ({ params }) => {
      const id = Number(params.id);
      if (id === 9) return errorJson(404, 'Item not found.', 'NOT_FOUND');
      list = list.map((row) =>
        row.id === id ? { ...row, isActive: true, stale: null, confirmedAt: new Date().toISOString() } : row,
      );
      return HttpResponse.json(list.find((row) => row.id === id));
    }),
    http.patch('/api/items/:id', async ({ params, request }) => {
      const id = Number(params.id);
      const body = (await request.json()) as { isActive?: boolean };
      list = list.map((row) =>
        row.id === id ? { ...row, isActive: body.isActive ?? row.isActive, stale: null } : row,
      );
      return HttpResponse.json(list.find((row) => row.id === id));
    }),
  );
  return recordRequests();
}

describe('My Items: "Still available?" (issue 31, ADR 088)', () => {
  it('asks about a listing with an open question, says why one is out of the feeds, and nothing for others', async () => {
    stubServer([asked, paused, fresh]);
    renderWithProviders(<MyItemsTab />);
    const [first, second, third] = (await screen.findAllByRole('listitem')) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(first).getByText('Still available?')).toBeInTheDocument();
    expect(
      within(first).getByRole('button', { name: 'Yes, still available: Old ladder' }),
    ).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: "No, it's gone: Old ladder" })).toBeInTheDocument();
    expect(within(second).getByText('Not shown in feeds: not confirmed for 38 days')).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Renew Camping tent' })).toBeInTheDocument();
    // Renew stands in for Show, and the listing is not called merely "Hidden".
    expect(within(second).queryByRole('button', { name: 'Show Camping tent' })).not.toBeInTheDocument();
    expect(within(second).queryByText('Hidden')).not.toBeInTheDocument();
    expect(within(third).queryByText('Still available?')).not.toBeInTheDocument();
    expect(within(third).queryByText(/Not shown in feeds/)).not.toBeInTheDocument();
  });

  it('"Yes, still available" renews with one click and the question goes', async () => {
    const sent = stubServer([asked]);
    renderWithProviders(<MyItemsTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, still available: Old ladder' }));
    expect(await screen.findByText('Thanks! Your listing stays listed')).toBeInTheDocument();
    await expect.poll(() => screen.queryByText('Still available?')).toBeNull();
    expect(sent.to('POST /api/items/1/renew')).toHaveLength(1);
  });

  it('"No, it\'s gone" hides the listing through the usual edit', async () => {
    const sent = stubServer([asked]);
    renderWithProviders(<MyItemsTab />);
    await userEvent.click(await screen.findByRole('button', { name: "No, it's gone: Old ladder" }));
    expect(await screen.findByText('Listing hidden')).toBeInTheDocument();
    expect(await sent.bodiesOf('PATCH /api/items/1')).toEqual([{ isActive: false }]);
    expect(await screen.findByRole('button', { name: 'Show Old ladder' })).toBeInTheDocument();
  });

  it('Renew from the keyboard puts a listing back in the feeds', async () => {
    const sent = stubServer([paused]);
    renderWithProviders(<MyItemsTab />);
    const renew = await screen.findByRole('button', { name: 'Renew Camping tent' });
    renew.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Listing renewed')).toBeInTheDocument();
    expect(sent.to('POST /api/items/2/renew')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: 'Hide Camping tent' })).toBeInTheDocument();
    expect(screen.queryByText(/Not shown in feeds/)).not.toBeInTheDocument();
  });

  it('shows the server’s reason when a renewal is refused', async () => {
    stubServer([item(9, { title: 'Gone lamp', stale: { askedAt: ago(1), pausedAt: null } })]);
    renderWithProviders(<MyItemsTab />);
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, still available: Gone lamp' }));
    expect(await screen.findByText('Item not found.')).toBeInTheDocument();
  });
});
