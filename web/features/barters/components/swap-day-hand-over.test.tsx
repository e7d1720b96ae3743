import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import type { Circle } from '#common/schemas/circles.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, server } from '#web/testing/server.ts';
import { barter, barterItem } from '../testing/fixtures';
import { BarterDetail } from './barter-detail';
import { BarterList } from './barter-list';

// Issue 30: a swap day's hand-over is labelled as the swap day's, never "Part of a trade circle".

const CAT = { id: 'cat', displayName: 'Cat U.', profileImageUrl: null };
const DAY = { id: 8, name: 'Maple Street swap' };

const ME = { id: 'me', displayName: 'Ann R.', profileImageUrl: null };
const item = (id: number, title: string) => ({
  id,
  title,
  category: 'music instr',
  isService: false,
  thumbnailUrl: null,
  estimatedValue: null,
});
const TENT = item(12, 'Camping tent');
const GUITAR = item(13, 'Acoustic guitar');

/** The swap day's loop of two: the viewer gives a tent to Cat (barter 42), Cat a guitar back (43). */
const loop: Circle = {
  id: 5,
  status: 'completed',
  steps: [
    { member: ME, me: true, gives: TENT, accepted: true },
    { member: CAT, me: false, gives: GUITAR, accepted: true },
  ],
  give: { item: TENT, to: CAT },
  get: { item: GUITAR, from: CAT },
  expiresAt: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  allowedActions: [],
  giveBarterId: 42,
  getBarterId: 43,
  threadId: null,
  closedBy: null,
  swapDayId: DAY.id,
  replacesId: null,
};

/** The viewer got Cat's guitar at the swap day (barter 43, a loop of the day). */
const handOver = (overrides: Partial<Barter> = {}) =>
  barter({
    id: 43,
    threadId: 43,
    status: 'completed',
    role: 'recipient',
    otherMember: CAT,
    offeredItems: [barterItem(13, { title: 'Acoustic guitar' })],
    requestedItems: [],
    message: null,
    expiresAt: null,
    allowedActions: ['rate', 'message'],
    circleId: 5,
    swapDay: DAY,
    ...overrides,
  });

describe('a swap day’s hand-over', () => {
  it('its page names the swap day and links to it, not to a trade circle', async () => {
    server.use(
      http.get('/api/barter-requests/43', () => HttpResponse.json(handOver())),
      http.get('/api/circles/5', () => HttpResponse.json(loop)),
      http.get('/api/barter-requests/43/messages', () => HttpResponse.json([])),
      // A completed barter's page reads whether a no-show report waits for an answer (ADR 079): none here.
      http.get('/api/barter-requests/43/attendance', () =>
        HttpResponse.json({
          planVersion: null,
          canReport: false,
          myReport: null,
          aboutMe: null,
          confirm: { askMe: false, myConfirmedAt: null, otherAsked: false, otherConfirmedAt: null },
        }),
      ),
    );
    renderWithProviders(<BarterDetail id={43} />);
    expect(await screen.findByRole('heading', { name: 'Barter with Cat U.', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/^A hand-over of the swap day Maple Street swap, since/)).toBeInTheDocument();
    const banner = screen.getByRole('region', { name: 'Swap day' });
    expect(banner).toHaveTextContent('Part of the swap day Maple Street swap.');
    // The loop in words, once the circle is read.
    expect(await within(banner).findByText(/You give Camping tent to Cat U\./)).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'See the swap day' })).toHaveAttribute(
      'href',
      '/swap-days/8',
    );
    expect(screen.queryByText(/trade circle/i)).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Trade circle' })).not.toBeInTheDocument();
  });

  it('the Barters lists badge it with the swap day, a circle’s hand-over as a trade circle', async () => {
    server.use(
      http.get('/api/barter-requests', () =>
        pagedJson([handOver(), handOver({ id: 44, swapDay: null, circleId: 6 })]),
      ),
    );
    renderWithProviders(<BarterList box="past" />);
    const rows = await screen.findAllByRole('listitem');
    expect(within(rows[0] as HTMLElement).getByText('Swap day: Maple Street swap')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByText('Trade circle')).not.toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Trade circle')).toBeInTheDocument();
  });
});
