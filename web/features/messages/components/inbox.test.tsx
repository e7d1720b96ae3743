import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '#common/schemas/conversations.ts';
import { OWN_LIST_PAGE_SIZE } from '#common/schemas/listings.ts';
import { barterKeys } from '#web/lib/query-keys.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { Inbox } from './inbox';

const ann = { id: 'ann', displayName: 'Ann R.', profileImageUrl: null };
const cat = { id: 'cat', displayName: 'Cat S.', profileImageUrl: null };

function conversation(id: number, overrides: Partial<Conversation> = {}): Conversation {
  return {
    id,
    kind: 'barter',
    barterId: id + 100,
    circleId: null,
    swapDay: null,
    members: [ann],
    lastMessage: {
      id: id * 10,
      fromMe: false,
      fromUserId: 'ann',
      preview: `Last words ${id}`,
      createdAt: new Date(Date.now() - id * 60_000).toISOString(),
    },
    unread: 0,
    ...overrides,
  };
}

describe('Inbox', () => {
  it('lists each conversation with who, what about, the last message, when and unread, and opens it', async () => {
    server.use(
      http.get('/api/messages/conversations', () =>
        pagedJson([
          conversation(1, { unread: 2 }),
          conversation(2, {
            kind: 'circle',
            circleId: 5,
            members: [ann, cat],
            lastMessage: { ...conversation(2).lastMessage, fromUserId: 'cat', preview: 'Saturday?' },
          }),
          conversation(3, {
            kind: 'swapDay',
            circleId: 6,
            swapDay: { id: 9, name: 'Maple Street swap' },
            lastMessage: {
              ...conversation(3).lastMessage,
              fromMe: true,
              fromUserId: 'me',
              preview: 'See you',
            },
          }),
          conversation(4, {
            members: [{ id: null, displayName: 'Former member', profileImageUrl: null }],
          }),
        ]),
      ),
    );
    const { location } = renderWithProviders(<Inbox />, { path: '/messages' });
    expect(screen.getByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Conversations' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(4);
    const [first, second, third, fourth] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];

    expect(within(first).getByText('Last words 1')).toBeInTheDocument();
    expect(within(first).getByText('2 unread messages')).toBeInTheDocument();
    expect(within(first).getByText('1 minute ago')).toBeInTheDocument();
    expect(within(second).getByRole('link', { name: 'Ann R., Cat S.' })).toHaveAttribute(
      'href',
      '/barters/102',
    );
    expect(within(second).getByText('Trade circle')).toBeInTheDocument();
    expect(within(second).getByText('Cat S.:')).toBeInTheDocument();
    expect(within(second).queryByText(/unread/)).not.toBeInTheDocument();
    expect(within(third).getByText('Swap day: Maple Street swap')).toBeInTheDocument();
    expect(within(third).getByText('You:')).toBeInTheDocument();
    expect(within(fourth).getByRole('link', { name: 'Former member' })).toBeInTheDocument();

    await userEvent.click(within(first).getByRole('link', { name: 'Ann R.' }));
    expect(location.history.at(-1)).toBe('/barters/101');
  });

  it('says so when there is nothing yet, and points to the Barters screen', async () => {
    server.use(http.get('/api/messages/conversations', () => pagedJson([])));
    renderWithProviders(<Inbox />, { path: '/messages' });
    expect(await screen.findByText(/No conversations yet/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Barters' })).toHaveAttribute('href', '/barters');
  });

  it('pages like the other lists, and reads again when its key goes stale (a message arrived)', async () => {
    let order = [1, 2];
    server.use(
      http.get('/api/messages/conversations', ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        if (offset > 0) return pagedJson([conversation(99)], OWN_LIST_PAGE_SIZE + 1);
        const page = Array.from({ length: OWN_LIST_PAGE_SIZE }, (_, i) =>
          conversation(order[i] ?? i + 10, { unread: order[i] === 2 && order[0] === 2 ? 1 : 0 }),
        );
        return pagedJson(page, OWN_LIST_PAGE_SIZE + 1);
      }),
    );
    const api = recordRequests();
    const { queryClient } = renderWithProviders(<Inbox />, { path: '/messages' });
    const list = await screen.findByRole('list', { name: 'Conversations' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(OWN_LIST_PAGE_SIZE);
    await userEvent.click(screen.getByRole('button', { name: 'Load More Conversations' }));
    expect(await within(list).findByText('Last words 99')).toBeInTheDocument();
    expect(api.to('GET /api/messages/conversations').map((call) => call.query.get('offset'))).toEqual([
      '0',
      String(OWN_LIST_PAGE_SIZE),
    ]);

    // A new message in conversation 2: the live layer makes the lists stale, the inbox reads again.
    order = [2, 1];
    await queryClient.invalidateQueries({ queryKey: barterKeys.lists() });
    expect(await within(list).findByText('1 unread message')).toBeInTheDocument();
    expect(
      within(within(list).getAllByRole('listitem')[0] as HTMLElement).getByText('Last words 2'),
    ).toBeVisible();
  });
});
