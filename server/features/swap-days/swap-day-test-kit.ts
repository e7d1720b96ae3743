import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { SwapDay, SwapDaySheet } from '#common/schemas/swap-days.ts';
import { memberEvents, notifications, type SwapDayRow, swapDays } from '../../db/schema/trading';
import type { TestApp } from '../../test/helpers';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { type MatchOutcome, swapDayMatchEvents } from './swap-day-match';

const HOUR_MS = 60 * 60 * 1000;
/** An instant `hours` from now, as the API takes it. */
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR_MS).toISOString();

/**
 * The swap-day tests' helpers on one app, over the barter kit's members (placed a few hundred metres
 * apart, so a leak of a position would show) and calls (every answer checked for e-mails and
 * positions).
 */
export function swapDayKit(t: TestApp) {
  const kit = barterKit(t);

  const input = (overrides: Record<string, unknown> = {}) => ({
    name: 'Maple Street swap day',
    place: 'Community hall, 12 Maple Street',
    startsAt: hoursFromNow(48),
    deadline: hoursFromNow(24),
    ...overrides,
  });

  const create = (who: Member, overrides: Record<string, unknown> = {}) =>
    kit.call(who, 'POST', '/api/swap-days', input(overrides));
  /** A new swap day organized by `who`. */
  const organise = async (who: Member, overrides: Record<string, unknown> = {}) =>
    kit.ok<SwapDay>(await create(who, overrides), 201);

  const get = (who: Member, id: number | string) => kit.call(who, 'GET', `/api/swap-days/${id}`);
  const act = (who: Member, id: number, action: 'join' | 'leave' | 'close' | 'cancel') =>
    kit.call(who, 'POST', `/api/swap-days/${id}/${action}`);
  const offer = (who: Member, id: number, itemIds: unknown) =>
    kit.call(who, 'POST', `/api/swap-days/${id}/offers`, { itemIds });
  const withdraw = (who: Member, id: number, itemId: number) =>
    kit.call(who, 'DELETE', `/api/swap-days/${id}/offers/${itemId}`);
  const rank = (who: Member, id: number, itemId: number, wantedItemIds: unknown) =>
    kit.call(who, 'PUT', `/api/swap-days/${id}/offers/${itemId}/wants`, { wantedItemIds });
  const sheet = (who: Member, id: number) => kit.call(who, 'GET', `/api/swap-days/${id}/sheet`);

  /** Join (unless organizing) and offer these items; the swap day as `who` then sees it. */
  async function bring(who: Member, id: number, itemIds: number[]): Promise<SwapDay> {
    const view = kit.ok<SwapDay>(await get(who, id));
    if (!view.joined) kit.ok<SwapDay>(await act(who, id, 'join'));
    return kit.ok<SwapDay>(await offer(who, id, itemIds));
  }

  /** Move the deadline (and start) into the past, as if time had passed. */
  async function passDeadline(id: number): Promise<void> {
    await kit
      .db()
      .update(swapDays)
      .set({ deadline: new Date(Date.now() - 60_000), startsAt: new Date(Date.now() + HOUR_MS) })
      .where(eq(swapDays.id, id));
  }

  /** The swap day's stored row. */
  async function row(id: number): Promise<SwapDayRow> {
    const [found] = await kit.db().select().from(swapDays).where(eq(swapDays.id, id));
    if (!found) throw new Error(`no swap day ${id}`);
    return found;
  }

  /**
   * Wait until the match job is done with swap day `id` (its 'settled' event in this process; at once
   * when it is not matching any more), as a member's page waits for the live event. Its row then.
   */
  async function settled(id: number): Promise<SwapDayRow> {
    let stop = () => {};
    const done = new Promise<void>((resolve) => {
      const listener = (settledId: number, _outcome: MatchOutcome) => {
        if (settledId === id) resolve();
      };
      swapDayMatchEvents.on('settled', listener);
      stop = () => swapDayMatchEvents.off('settled', listener);
    });
    try {
      if ((await row(id)).status === 'matching') await done;
    } finally {
      stop();
    }
    return row(id);
  }

  /** The organizer closes want lists (202, 'matching'); the swap day once the job stored its match. */
  async function closeAndSettle(who: Member, id: number): Promise<SwapDay> {
    const closing = kit.ok<SwapDay>(await act(who, id, 'close'), 202);
    expect(closing.status).toBe('matching');
    await settled(id);
    return kit.ok<SwapDay>(await get(who, id));
  }

  /** The swap_day_solved notifications of a member, as (barter, circle) pairs. */
  async function solvedNotices(userId: string) {
    return kit
      .db()
      .select({ barterRequestId: notifications.barterRequestId, circleId: notifications.circleId })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'swap_day_solved')));
  }

  /** How many 'swapDay' events about `swapDayId` were stored for the member. */
  async function swapDayEventCount(userId: string, swapDayId: number): Promise<number> {
    const rows = await kit
      .db()
      .select({ data: memberEvents.data })
      .from(memberEvents)
      .where(and(eq(memberEvents.userId, userId), eq(memberEvents.type, 'swapDay')));
    return rows.filter((row) => (row.data as { swapDayId?: number }).swapDayId === swapDayId).length;
  }

  /** The sheet's lines as "giver > receiver: item (loop n)". */
  const sheetLines = (body: SwapDaySheet) =>
    body.givers.flatMap((group) =>
      group.lines.map(
        (line) =>
          `${group.giver.displayName} > ${line.receiver.displayName}: ${line.item.title} (loop ${line.loop})`,
      ),
    );

  const expectStatus = (response: { statusCode: number; body: string }, status: number) =>
    expect(response.statusCode, response.body).toBe(status);

  return {
    ...kit,
    input,
    create,
    organise,
    getSwapDay: get,
    swapDayAct: act,
    offer,
    withdraw,
    rank,
    sheet,
    bring,
    passDeadline,
    row,
    settled,
    closeAndSettle,
    solvedNotices,
    swapDayEventCount,
    sheetLines,
    expectStatus,
  };
}
