import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Trade } from '#common/schemas/trades.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { TradeHistoryTab } from './trade-history-tab';

const ME = 'me';

/** A swap day's hand-over in the history (issue 30, ADR 073): given by me, or received. */
function handOver(id: number, gave: boolean): Trade {
  const when = new Date(Date.now() - id * 60_000).toISOString();
  const mine = { firstName: 'Rosa', email: 'rosa@example.com', profileImageUrl: null };
  const theirs = { firstName: `Neighbor${id}`, email: null, profileImageUrl: null };
  const item = { title: `Thing ${id}`, category: 'tools' };
  return {
    id,
    fromUserId: gave ? ME : `other-${id}`,
    toUserId: gave ? `other-${id}` : ME,
    fromUser: gave ? mine : theirs,
    toUser: gave ? theirs : mine,
    fromItem: item,
    toItem: null,
    fromItems: [item],
    toItems: [],
    swapDay: { id: 4, name: 'Elm Street swap' },
    status: 'completed',
    createdAt: when,
    updatedAt: when,
  };
}

describe('Trade History: swap-day hand-overs', () => {
  it('say "Given at <swap day>" or "Received at <swap day>", not "Trade circle"', async () => {
    server.use(
      http.get(`/api/users/${ME}/trades`, () => HttpResponse.json([handOver(1, true), handOver(2, false)])),
      http.get(`/api/users/${ME}/trade-stats`, () =>
        HttpResponse.json({ totalTrades: 2, rating: null, thisMonth: 2, tradingPartners: 2 }),
      ),
    );
    renderWithProviders(<TradeHistoryTab userId={ME} />);
    const list = await screen.findByRole('list', { name: 'Recent trades' });
    const [gave, got] = within(list).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(gave).getByText('Given at Elm Street swap')).toBeInTheDocument();
    expect(within(got).getByText('Received at Elm Street swap')).toBeInTheDocument();
    expect(within(list).queryByText('Trade circle')).not.toBeInTheDocument();
    expect(within(gave).getByText('Thing 1').parentElement).toHaveTextContent(
      /^You gave Thing 1 to Neighbor1$/,
    );
  });
});
