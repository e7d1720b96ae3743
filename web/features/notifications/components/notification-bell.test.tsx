import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Notification } from '#common/schemas/notifications.ts';
import { formatDateTime } from '#web/i18n/format.ts';
import { useUnreadCounts } from '#web/lib/unread-counts.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { NotificationBell } from './notification-bell';

const MINUTE = 60 * 1000;

function entry(id: number, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'proposal_received',
    barterRequestId: 100 + id,
    circleId: null,
    swapDay: null,
    actor: { id: `member-${id}`, displayName: 'Ann R.', profileImageUrl: null },
    count: 1,
    handOver: null,
    createdAt: new Date(Date.now() - (10 - id) * 5 * MINUTE).toISOString(),
    read: false,
    ...overrides,
  };
}

/** The bell as the header shows it: its count comes from the unread query. */
function Bell() {
  const unread = useUnreadCounts();
  return <NotificationBell unread={unread.notifications} />;
}

interface Api {
  pages: Notification[][];
  total: number;
  unread: number;
}

/** Answer the notification endpoints like the server would; anything else fails the test. */
function stubServer(api: Api) {
  server.use(
    http.get('/api/notifications/unread-count', () => HttpResponse.json(api.unread)),
    http.get('/api/messages/unread-count', () => HttpResponse.json(0)),
    http.get('/api/notifications', ({ request }) => {
      const offset = Number(new URL(request.url).searchParams.get('offset'));
      return pagedJson(api.pages[offset === 0 ? 0 : 1] ?? [], api.total);
    }),
    http.post('/api/notifications/:id/read', () => {
      api.unread -= 1;
      return HttpResponse.json({ notifications: api.unread, messages: 0 });
    }),
    http.post('/api/notifications/read-all', () => {
      api.unread = 0;
      return HttpResponse.json({ notifications: 0, messages: 0 });
    }),
  );
  return recordRequests();
}

/** What the page sent, as "METHOD /path?query", in order. */
const calls = (sent: ReturnType<typeof stubServer>) =>
  sent.sent.map((request) => `${request.method} ${request.url}`);

describe('NotificationBell', () => {
  it('says the unread count and lists the notifications newest first, unread ones marked', async () => {
    const sent = stubServer({
      pages: [
        [
          entry(3, { kind: 'message_received', count: 3 }),
          entry(2, { kind: 'proposal_accepted', read: true }),
          entry(1, { kind: 'proposal_expired', actor: null }),
        ],
      ],
      total: 3,
      unread: 2,
    });
    renderWithProviders(<Bell />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    // The list is read only once the bell opens.
    expect(calls(sent).some((call) => call.startsWith('GET /api/notifications?'))).toBe(false);
    await userEvent.click(bell);

    const menu = await screen.findByRole('menu');
    const items = await within(menu).findAllByRole('menuitem', { name: /Unread|Ann|expired/ });
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Unread: 3 new messages from Ann R., 35 minutes ago',
      'Ann R. accepted your proposal, 40 minutes ago',
      'Unread: A proposal expired after 14 days, 45 minutes ago',
    ]);
    expect(items.map((item) => item.textContent)).toEqual([
      '3 new messages from Ann R.35 minutes ago',
      'Ann R. accepted your proposal40 minutes ago',
      'A proposal expired after 14 days45 minutes ago',
    ]);
    expect(items[0]).toHaveAttribute('href', '/barters/103');
    expect(items[1]).toHaveAttribute('href', '/barters/102');
    expect(calls(sent)).toContain('GET /api/notifications?limit=50&offset=0');
    expect(within(menu).queryByRole('menuitem', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('following an unread entry marks it read and opens its barter', async () => {
    const sent = stubServer({ pages: [[entry(2), entry(1, { read: true })]], total: 2, unread: 1 });
    const { location } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Unread: Ann R\. proposed a barter/ }));

    expect(location.history?.at(-1)).toBe('/barters/102');
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(calls(sent)).toContain('POST /api/notifications/2/read');

    // Opened again, the entry shows as read, from the cache.
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    const entries = await screen.findAllByRole('menuitem', { name: /proposed a barter/ });
    expect(
      entries.map((item) => [
        item.getAttribute('href'),
        item.getAttribute('aria-label')?.startsWith('Unread'),
      ]),
    ).toEqual([
      ['/barters/102', false],
      ['/barters/101', false],
    ]);
  });

  it('a trade circle’s entry opens the circle', async () => {
    stubServer({
      pages: [
        [
          entry(2, { kind: 'circle_proposed', barterRequestId: null, circleId: 5, actor: null }),
          entry(1, { kind: 'circle_declined', barterRequestId: null, circleId: 4, read: true }),
        ],
      ],
      total: 2,
      unread: 1,
    });
    const { location } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    expect(
      await screen.findByRole('menuitem', { name: /Ann R\. declined the trade circle/ }),
    ).toHaveAttribute('href', '/circles/4');
    await userEvent.click(screen.getByRole('menuitem', { name: /^Unread: You are in a new trade circle/ }));
    expect(location.history?.at(-1)).toBe('/circles/5');
  });

  it('a swap day’s entries name the day and open its page, not the barter or the loop (issue 30)', async () => {
    const day = { id: 8, name: 'Maple Street swap' };
    stubServer({
      pages: [
        [
          entry(3, { kind: 'message_received', barterRequestId: 40, swapDay: day, read: true }),
          entry(2, { kind: 'completion_requested', barterRequestId: 40, swapDay: day }),
          entry(1, { kind: 'swap_day_solved', barterRequestId: 40, circleId: 6, swapDay: day, read: true }),
        ],
      ],
      total: 3,
      unread: 1,
    });
    const { location } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    // A message opens its conversation, on the hand-over's page, still naming the day.
    const message = await screen.findByRole('menuitem', {
      name: /^New message from Ann R\. \(swap day Maple Street swap\)/,
    });
    expect(message).toHaveAttribute('href', '/barters/40');
    const solved = await screen.findByRole('menuitem', {
      name: /^Your swap day is matched: see what you give and get \(swap day Maple Street swap\)/,
    });
    expect(solved).toHaveAttribute('href', '/swap-days/8');
    expect(within(solved).getByText('Swap day: Maple Street swap')).toBeInTheDocument();
    await userEvent.click(
      screen.getByRole('menuitem', {
        name: /^Unread: Ann R\. confirmed the barter is completed \(swap day Maple Street swap\)/,
      }),
    );
    expect(location.history?.at(-1)).toBe('/swap-days/8');
  });

  it('a hand-over reminder names the other member, the time and the place, and opens the barter (ADR 078)', async () => {
    const startsAt = '2026-12-01T10:30:00.000Z';
    const handOver = { startsAt, place: 'Central Library, main entrance' };
    const day = { id: 8, name: 'Maple Street swap' };
    stubServer({
      pages: [
        [
          entry(3, { kind: 'want_question', barterRequestId: 41, actor: null, swapDay: day }),
          entry(2, { kind: 'hand_over_reminder_hour', barterRequestId: 40, handOver, swapDay: day }),
          entry(1, { kind: 'hand_over_reminder_day', barterRequestId: 40, handOver, read: true }),
        ],
      ],
      total: 3,
      unread: 2,
    });
    const { location } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const when = formatDateTime(startsAt);
    const day24 = await screen.findByRole('menuitem', {
      name: `Reminder: your hand-over with Ann R. is in 24 hours: ${when}, at Central Library, main entrance, 45 minutes ago`,
    });
    expect(day24).toHaveAttribute('href', '/barters/40');
    expect(day24).toHaveTextContent(
      `Reminder: your hand-over with Ann R. is in 24 hours: ${when}, at Central Library, main entrance`,
    );
    // A swap day's hand-over: the reminder still opens the hand-over's page, where the plan is.
    const hour = screen.getByRole('menuitem', {
      name: `Unread: Reminder: your hand-over with Ann R. is in 1 hour: ${when}, at Central Library, main entrance (swap day Maple Street swap), 40 minutes ago`,
    });
    expect(hour).toHaveAttribute('href', '/barters/40');
    // "Did this fill your want?" opens the barter, whose page has the Yes and No.
    const question = screen.getByRole('menuitem', {
      name: /^Unread: Did this completed barter fill your want\? Answer on the barter page/,
    });
    expect(question).toHaveAttribute('href', '/barters/41');
    await userEvent.click(question);
    expect(location.history?.at(-1)).toBe('/barters/41');
  });

  it('"Still available?" names the listing and opens My Items, where it is answered (ADR 088)', async () => {
    stubServer({
      pages: [
        [
          entry(2, {
            kind: 'listing_paused_stale',
            barterRequestId: null,
            actor: null,
            item: { id: 7, title: 'Camping tent' },
          }),
          entry(1, {
            kind: 'listing_still_available',
            barterRequestId: null,
            actor: null,
            item: { id: 5, title: 'Old ladder' },
          }),
        ],
      ],
      total: 2,
      unread: 2,
    });
    const { location } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const paused = await screen.findByRole('menuitem', {
      name: /^Unread: Not shown in feeds until you renew it: Camping tent, /,
    });
    expect(paused).toHaveAttribute('href', '/profile?tab=items');
    const asked = screen.getByRole('menuitem', { name: /^Unread: Still available\? Old ladder, / });
    expect(asked).toHaveAttribute('href', '/profile?tab=items');
    await userEvent.click(asked);
    expect(location.history?.at(-1)).toBe('/profile?tab=items');
  });

  it('following a read entry sends nothing', async () => {
    const sent = stubServer({ pages: [[entry(1, { read: true })]], total: 1, unread: 0 });
    const { location } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /proposed a barter/ }));
    expect(location.history?.at(-1)).toBe('/barters/101');
    expect(calls(sent).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('"Mark all as read" clears the count and the marks, and the menu stays open', async () => {
    const api: Api = { pages: [[entry(2), entry(1)]], total: 2, unread: 2 };
    const sent = stubServer(api);
    // "Mark all as read" is answered only once the page has drawn it pending, as on a real network.
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post('/api/notifications/read-all', async ({ request }) => {
        if (!new URL(request.url).searchParams.has('upTo')) await answered;
        api.unread = 0;
        return HttpResponse.json({ notifications: 0, messages: 0 });
      }),
    );
    renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const markAll = await screen.findByRole('menuitem', { name: 'Mark all as read' });
    await screen.findAllByRole('menuitem', { name: /^Unread:/ });
    // Opening marked them read on the server already (the count says 0); the marks stay until asked.
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getAllByRole('menuitem', { name: /^Unread:/ })).toHaveLength(2);
    await userEvent.click(markAll);
    await waitFor(() => expect(markAll).toHaveAttribute('aria-disabled', 'true'));
    answer();

    const menu = screen.getByRole('menu');
    await waitFor(() => expect(within(menu).queryAllByRole('menuitem', { name: /^Unread:/ })).toEqual([]));
    expect(calls(sent)).toContain('POST /api/notifications/read-all');
    expect(within(menu).getAllByRole('menuitem', { name: /proposed a barter/ })).toHaveLength(2);
    expect(within(menu).getByRole('menuitem', { name: 'Mark all as read' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('opening it marks what it shows read: the count drops to 0 at once and stays so (issue 28)', async () => {
    const api: Api = { pages: [[entry(3), entry(2), entry(1, { read: true })]], total: 3, unread: 2 };
    const sent = stubServer(api);
    const { unmount, queryClient } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));

    // Marked on the server up to the newest entry shown; the badge takes the counts it answers.
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    expect(calls(sent).filter((call) => call.startsWith('POST'))).toEqual([
      'POST /api/notifications/read-all?upTo=3',
    ]);
    // While open, what was new still says so.
    const menu = screen.getByRole('menu');
    expect(within(menu).getAllByRole('menuitem', { name: /^Unread:/ })).toHaveLength(2);

    // Closed and opened again: all read, and nothing more is sent.
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Notifications' }));
    await screen.findAllByRole('menuitem', { name: /proposed a barter/ });
    expect(screen.queryAllByRole('menuitem', { name: /^Unread:/ })).toEqual([]);
    expect(calls(sent).filter((call) => call.startsWith('POST'))).toHaveLength(1);

    // A live update still raises the count.
    await userEvent.keyboard('{Escape}');
    act(() => queryClient.setQueryData(['unread', 'notifications'], 1));
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();

    // A reload reads the count the server now has.
    unmount();
    api.unread = 0;
    renderWithProviders(<Bell />);
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
  });

  it('keeps what was new marked while open, even when the list is read again meanwhile (CI, stop 35)', async () => {
    // The server marks the shown entries read as the bell opens; a new notification arriving just
    // after makes the list stale, and it is read again: the two shown entries now come back read.
    const api: Api = { pages: [[entry(2), entry(1)]], total: 2, unread: 2 };
    stubServer(api);
    server.use(
      http.post('/api/notifications/read-all', () => {
        // Marks all it has read; the first time, a new one arrives just after.
        const rows = (api.pages[0] ?? []).map((row) => ({ ...row, read: true }));
        api.pages = [rows.length === 2 ? [entry(3), ...rows] : rows];
        api.total = api.pages[0]?.length ?? 0;
        api.unread = rows.length === 2 ? 1 : 0;
        return HttpResponse.json({ notifications: 0, messages: 0 });
      }),
    );
    const { queryClient } = renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    act(() => void queryClient.invalidateQueries({ queryKey: ['notifications', 'list'] }));

    // The newcomer is listed, and what was new when the bell opened still says so.
    const menu = screen.getByRole('menu');
    expect(await within(menu).findByRole('menuitem', { name: /35 minutes ago$/ })).toBeInTheDocument();
    expect(
      within(menu)
        .getAllByRole('menuitem', { name: /^Unread:/ })
        .map((item) => item.getAttribute('aria-label')?.replace(/^.*, /, '')),
    ).toEqual(['35 minutes ago', '40 minutes ago', '45 minutes ago']);

    // The newcomer was shown too, so it is marked read as well; closed and opened again, all three
    // are read, as the server has them.
    await userEvent.keyboard('{Escape}');
    await userEvent.click(await screen.findByRole('button', { name: /^Notifications/ }));
    await screen.findAllByRole('menuitem', { name: /proposed a barter/ });
    expect(
      screen
        .queryAllByRole('menuitem', { name: /proposed a barter/ })
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual([
      'Ann R. proposed a barter, 35 minutes ago',
      'Ann R. proposed a barter, 40 minutes ago',
      'Ann R. proposed a barter, 45 minutes ago',
    ]);
  });

  it('opening it sends nothing when nothing is unread', async () => {
    const sent = stubServer({ pages: [[entry(1, { read: true })]], total: 1, unread: 0 });
    renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    await screen.findByRole('menuitem', { name: /proposed a barter/ });
    expect(calls(sent).filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('says so when there is nothing yet', async () => {
    stubServer({ pages: [[]], total: 0, unread: 0 });
    renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Mark all as read' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });

  it('loads the next page on "Load more"', async () => {
    const first = Array.from({ length: 50 }, (_, i) => entry(1000 - i, { read: true }));
    const sent = stubServer({
      pages: [first, [entry(1, { kind: 'barter_completed', read: true })]],
      total: 51,
      unread: 0,
    });
    renderWithProviders(<Bell />);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Load more' }));
    expect(await screen.findByRole('menuitem', { name: /Barter completed/ })).toHaveAttribute(
      'href',
      '/barters/101',
    );
    expect(calls(sent)).toContain('GET /api/notifications?limit=50&offset=50');
    expect(screen.queryByRole('menuitem', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('opens and works from the keyboard', async () => {
    const user = userEvent.setup();
    const sent = stubServer({ pages: [[entry(1)]], total: 1, unread: 1 });
    const { location } = renderWithProviders(<Bell />);
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.tab();
    expect(screen.getByRole('button', { name: 'Notifications, 1 unread' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menuitem', { name: /^Unread: Ann R\./ });
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: /^Unread: Ann R\./ })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(location.history?.at(-1)).toBe('/barters/101');
    expect(calls(sent)).toContain('POST /api/notifications/1/read');
  });
});
