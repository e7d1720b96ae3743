import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Trade, TradeStats } from '#common/schemas/trades.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { TradeHistoryTab } from './trade-history-tab';

const ME = 'me';
const DAY = 24 * 60 * 60 * 1000;

function trade(id: number, overrides: Partial<Trade> = {}): Trade {
  const when = new Date(Date.now() - id * DAY).toISOString();
  return {
    id,
    fromUserId: ME,
    toUserId: `other-${id}`,
    fromUser: { firstName: 'Rosa', email: 'rosa@example.com', profileImageUrl: null },
    toUser: { firstName: `Neighbour${id}`, email: null, profileImageUrl: null },
    fromItem: { title: `My thing ${id}`, category: 'tools' },
    toItem: { title: `Their thing ${id}`, category: 'books' },
    status: 'completed',
    createdAt: when,
    updatedAt: when,
    ...overrides,
  };
}

/** Answer the two trade endpoints for user `me`; anything else fails the test. Returns what was asked. */
function stubTrades(trades: Trade[], stats: TradeStats) {
  server.use(
    http.get(`/api/users/${ME}/trades`, () => HttpResponse.json(trades)),
    http.get(`/api/users/${ME}/trade-stats`, () => HttpResponse.json(stats)),
  );
  return recordRequests();
}

/** The value shown under a stat card's label. */
function stat(label: string): string | null {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null;
}

describe('TradeHistoryTab', () => {
  it('shows the stats and the 5 most recent of 7 trades', async () => {
    const deletedCounterpart = trade(3, {
      fromUserId: null,
      toUserId: ME,
      fromUser: null,
      toUser: { firstName: 'Rosa', email: 'rosa@example.com', profileImageUrl: null },
      fromItem: { title: 'Sourdough loaf', category: 'farm+garden' },
      toItem: { title: 'Hand drill', category: 'tools' },
    });
    const sent = stubTrades([trade(1), trade(2), deletedCounterpart, trade(4), trade(5)], {
      totalTrades: 7,
      rating: 4.8,
      thisMonth: 2,
      tradingPartners: 2,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<TradeHistoryTab userId={ME} />);

    expect(await screen.findByText('Showing 5 of 7 trades')).toBeInTheDocument();
    expect(stat('Total Trades')).toBe('7');
    expect(stat('Rating')).toBe('4.8');
    expect(stat('This Month')).toBe('2');
    expect(sent.to(`GET /api/users/${ME}/trades`).map((request) => request.url)).toEqual([
      `/api/users/${ME}/trades?limit=5`,
    ]);

    const rows = within(screen.getByRole('list', { name: 'Recent trades' })).getAllByRole('listitem');
    expect(rows).toHaveLength(5);
    // Newest first, as the server sends them, seen from my side.
    expect(rows[0]).toHaveTextContent('Traded with Neighbour1');
    expect(within(rows[0] as HTMLElement).getByText('My thing 1')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('Their thing 1')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('tools')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('books')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).getByText('yesterday')).toBeInTheDocument();
    // A counterpart whose account is gone is 'Former member' (ADR 025); I was the receiving side there.
    const third = within(rows[2] as HTMLElement);
    expect(rows[2]).toHaveTextContent('Traded with Former member');
    expect(third.getByText('Hand drill')).toBeInTheDocument();
    expect(third.getByText('Sourdough loaf')).toBeInTheDocument();
    expect(third.getByText('farm+garden')).toBeInTheDocument();
    expect(third.getByText('3 days ago')).toBeInTheDocument();
    expect(screen.getAllByText('Completed')).toHaveLength(5);
  });

  it("shows 'N/A' without ratings, and no 'Showing' line when every trade is listed", async () => {
    stubTrades([trade(1), trade(2)], {
      totalTrades: 2,
      rating: null,
      thisMonth: 1,
      tradingPartners: 1,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<TradeHistoryTab userId={ME} />);
    // The counterpart's name links to their member page.
    const link = await screen.findByRole('link', { name: 'Neighbour2' });
    expect(link.closest('p')).toHaveTextContent('Traded with Neighbour2');
    expect(stat('Rating')).toBe('N/A');
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument();
  });

  it('reads a trade circle’s hand-overs one way: what I gave, to whom; what I got, from whom', async () => {
    stubTrades(
      [
        trade(1, { fromItems: [{ title: 'Cordless drill', category: 'tools' }], toItem: null, toItems: [] }),
        trade(2, {
          fromUserId: 'cat',
          toUserId: ME,
          fromUser: { firstName: 'Cat', email: null, profileImageUrl: null },
          toUser: { firstName: 'Rosa', email: 'rosa@example.com', profileImageUrl: null },
          fromItem: { title: 'Acoustic guitar', category: 'music instr' },
          fromItems: [{ title: 'Acoustic guitar', category: 'music instr' }],
          toItem: null,
          toItems: [],
        }),
      ],
      { totalTrades: 2, rating: null, thisMonth: 2, tradingPartners: 2, handOvers: { kept: 0, due: 0 } },
    );
    renderWithProviders(<TradeHistoryTab userId={ME} />);
    const list = await screen.findByRole('list', { name: 'Recent trades' });
    const [gave, got] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(gave).getByText('Cordless drill').parentElement).toHaveTextContent(
      /^You gave Cordless drill to Neighbour1$/,
    );
    expect(within(gave).getByText('tools')).toBeInTheDocument();
    expect(within(got).getByText('Acoustic guitar').parentElement).toHaveTextContent(
      /^You got Acoustic guitar from Cat$/,
    );
    expect(within(got).getByText('music instr')).toBeInTheDocument();
    expect(within(gave).getByText('Trade circle')).toBeInTheDocument();
    expect(within(gave).queryByText('Unlisted item')).not.toBeInTheDocument();
    expect(within(got).queryByText('Unlisted item')).not.toBeInTheDocument();
  });

  it('shows only 5 even if the server sends more', async () => {
    stubTrades(
      Array.from({ length: 7 }, (_, i) => trade(i + 1)),
      { totalTrades: 7, rating: 5, thisMonth: 7, tradingPartners: 7, handOvers: { kept: 0, due: 0 } },
    );
    renderWithProviders(<TradeHistoryTab userId={ME} />);
    expect(await screen.findByText('Showing 5 of 7 trades')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Recent trades' })).getAllByRole('listitem')).toHaveLength(
      5,
    );
  });

  it('says so when there are no completed trades', async () => {
    stubTrades([], {
      totalTrades: 0,
      rating: null,
      thisMonth: 0,
      tradingPartners: 0,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<TradeHistoryTab userId={ME} />);
    expect(await screen.findByText('No completed trades yet')).toBeInTheDocument();
    expect(stat('Total Trades')).toBe('0');
    expect(stat('Rating')).toBe('N/A');
    expect(stat('This Month')).toBe('0');
    expect(screen.queryByRole('list', { name: 'Recent trades' })).not.toBeInTheDocument();
  });

  it('offers to try again when the history cannot be loaded', async () => {
    server.use(
      http.get(`/api/users/${ME}/trades`, () => errorJson(500, 'Internal error', 'INTERNAL')),
      http.get(`/api/users/${ME}/trade-stats`, () => errorJson(500, 'Internal error', 'INTERNAL')),
    );
    renderWithProviders(<TradeHistoryTab userId={ME} />);
    expect(await screen.findByText('We could not load the trade history.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
