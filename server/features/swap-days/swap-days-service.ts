import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  SWAP_DAY_ERROR_CODES,
  SWAP_DAY_LIST_LIMIT,
  SWAP_DAY_MAX_MEMBERS,
  SWAP_DAY_MAX_OFFERS_PER_MEMBER,
  SWAP_DAY_MAX_OPEN_ORGANISED,
  type SwapDayAction,
  type SwapDayLists,
  type swapDayInputSchema,
  type swapDayOfferInputSchema,
  type swapDayWantsInputSchema,
} from '#common/schemas/swap-days.ts';
import type { Db } from '../../db/client';
import type { SwapDayRow } from '../../db/schema/trading';
import { badRequest, conflict, notFound } from '../../errors';
import { memberEvent, type NewMemberEvent, publishMemberEvents } from '../../events/publish';
import { lockItemsInIdOrder } from '../items';
import { assertAppropriateFor, type RefusalKind } from '../safety';
import { refusal, type SwapDayAccess, swapDayNotFound } from './swap-day-policy';
import { handOversOf, presentSheet, presentSummary, presentSwapDay } from './swap-days-presenter';
import {
  countMembers,
  countOpenOrganisedBy,
  deleteMember,
  deleteOffers,
  findHandOvers,
  findHiddenFrom,
  findMemberIds,
  findMembers,
  findMine,
  findNearby,
  findOfferableItems,
  findOfferedIdsOf,
  findOfferOwners,
  findOffers,
  findPublicPoint,
  findRankingsOf,
  findSummary,
  insertMember,
  insertOffers,
  insertSwapDay,
  isMember,
  lockSwapDay,
  markDueMatching,
  replaceRanking,
  updateSwapDay,
  type Viewer,
} from './swap-days-repository';

/** Who is asking: the signed-in member (their own point and travel distance decide what is near). */
export type SwapDayViewer = Viewer;

type SwapDayInput = z.output<typeof swapDayInputSchema>;
type OfferInput = z.output<typeof swapDayOfferInputSchema>;
type WantsInput = z.output<typeof swapDayWantsInputSchema>;

/** The Terms check's record of what kind of text was refused (REFUSAL_KINDS). */
const SWAP_DAY_TEXT: RefusalKind = 'swap-day';

/** The most items the organizer's "your items" list offers to choose from. */
const OFFERABLE_LIMIT = 100;

/** 'swapDay' events: the swap day changed, its members' pages read it again. */
export const swapDayEvents = (memberIds: Iterable<string>, swapDayId: number): NewMemberEvent[] =>
  [...new Set(memberIds)].map((userId) => memberEvent(userId, 'swapDay', { swapDayId }));

// ------------------------------------------------------------------------------------------------
// Reads

/** The swap days the member organizes or joined, and open ones near them. */
export async function listSwapDays(db: Db, member: Viewer, now = new Date()): Promise<SwapDayLists> {
  const mine = await findMine(db, member, now, SWAP_DAY_LIST_LIMIT);
  const nearby = await findNearby(db, member, now, SWAP_DAY_LIST_LIMIT);
  return {
    mine: mine.map((row) => presentSummary(row, member.id, now)),
    nearby: nearby.map((row) => presentSummary(row, member.id, now)),
  };
}

/** What the rules need about the viewer and a swap day (read, not locked, besides the row's lock). */
async function accessOf(db: Db, member: Viewer, row: SwapDayRow): Promise<SwapDayAccess> {
  const joined = await isMember(db, row.id, member.id);
  const isOrganiser = row.organiserId === member.id;
  let visible = joined || isOrganiser;
  if (!visible) {
    const summary = await findSummary(db, member, row.id);
    visible = summary?.near === true && !summary.organiserHidden;
  }
  return { row, viewerId: member.id, joined, visible };
}

/** A swap day as the member sees it; 404 when it is not theirs to see (or there is none). */
export async function getSwapDay(db: Db, member: Viewer, id: number, now = new Date()) {
  const summary = await findSummary(db, member, id);
  if (!summary) throw swapDayNotFound();
  const isOrganiser = summary.row.organiserId === member.id;
  const access: SwapDayAccess = {
    row: summary.row,
    viewerId: member.id,
    joined: summary.joined,
    visible: summary.joined || isOrganiser || (summary.near && !summary.organiserHidden),
  };
  if (!access.visible) throw swapDayNotFound();
  const members = await findMembers(db, summary.row);
  const offers = await findOffers(db, id);
  const hidden = await findHiddenFrom(db, member.id);
  const rankings = summary.joined ? await findRankingsOf(db, id, member.id) : new Map<number, number[]>();
  const offerable = summary.joined ? await findOfferableItems(db, id, member.id, OFFERABLE_LIMIT) : [];
  const handOvers =
    summary.row.status === 'solved' && summary.joined ? handOversOf(await findHandOvers(db, id)) : [];
  return presentSwapDay({ summary, access, members, offers, rankings, offerable, handOvers, hidden }, now);
}

/**
 * The pick-up sheet of a matched swap day: the organizer's has every hand-over, a member's their own
 * lines. Others: 404; before matching: 409.
 */
export async function getSheet(db: Db, member: Viewer, id: number, now = new Date()) {
  const summary = await findSummary(db, member, id);
  const isOrganiser = summary?.row.organiserId === member.id;
  if (!summary || (!summary.joined && !isOrganiser)) throw swapDayNotFound();
  if (summary.row.status !== 'solved') {
    throw conflict(
      summary.row.status === 'cancelled'
        ? 'This swap day was canceled, so it has no pick-up sheet.'
        : 'The pick-up sheet is ready once the swap day is matched.',
      SWAP_DAY_ERROR_CODES.notSolved,
    );
  }
  return presentSheet(summary, member.id, handOversOf(await findHandOvers(db, id)), now);
}

// ------------------------------------------------------------------------------------------------
// Organizing

/**
 * Organize a swap day (name and place moderated): stored at the organizer's public point (never
 * their exact one), the organizer its first member. Needs a location; at most
 * SWAP_DAY_MAX_OPEN_ORGANISED not yet matched at a time. The new swap day's id.
 */
export async function createSwapDay(db: Db, member: Viewer, input: SwapDayInput): Promise<number> {
  await assertAppropriateFor(db, member.id, SWAP_DAY_TEXT, input.name, input.place);
  return db.transaction(async (tx) => {
    // One organizer's swap days are counted and made one at a time.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`swap-days:${member.id}`}::text))`);
    const point = await findPublicPoint(tx, member.id);
    if (!point) {
      throw badRequest(
        'Set your location in your profile first, so neighbors nearby can find your swap day.',
        SWAP_DAY_ERROR_CODES.locationRequired,
      );
    }
    if ((await countOpenOrganisedBy(tx, member.id)) >= SWAP_DAY_MAX_OPEN_ORGANISED) {
      throw conflict(
        `You already organize ${SWAP_DAY_MAX_OPEN_ORGANISED} swap days that are not matched yet. Match or cancel one first.`,
        SWAP_DAY_ERROR_CODES.limit,
      );
    }
    const row = await insertSwapDay(tx, {
      organiserId: member.id,
      name: input.name,
      place: input.place,
      startsAt: input.startsAt,
      deadline: input.deadline,
      latitude: point.latitude,
      longitude: point.longitude,
    });
    await insertMember(tx, row.id, member.id);
    await publishMemberEvents(tx, swapDayEvents([member.id], row.id));
    return row.id;
  });
}

/**
 * Take `action` on swap day `id` as `member` in one transaction: lock the row (`share` for a
 * member's own changes, which go side by side; `no key update` for joining, matching and cancelling),
 * refuse what the policy refuses, then `apply`.
 */
async function act<T>(
  db: Db,
  member: Viewer,
  id: number,
  action: SwapDayAction,
  strength: 'share' | 'no key update',
  apply: (tx: Db, row: SwapDayRow, access: SwapDayAccess, now: Date) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const row = await lockSwapDay(tx, id, strength);
    if (!row) throw swapDayNotFound();
    const access = await accessOf(tx, member, row);
    const now = new Date();
    const refused = refusal(action, access, now);
    if (refused) throw refused;
    return apply(tx, row, access, now);
  });
}

/** Join (before the deadline; joining twice is fine). Everyone's pages are told. */
export async function join(db: Db, member: Viewer, id: number): Promise<void> {
  await act(db, member, id, 'join', 'no key update', async (tx, row, access) => {
    if (access.joined) return;
    if ((await countMembers(tx, row.id)) >= SWAP_DAY_MAX_MEMBERS) {
      throw conflict(
        `This swap day is full: it has ${SWAP_DAY_MAX_MEMBERS} members.`,
        SWAP_DAY_ERROR_CODES.limit,
      );
    }
    await insertMember(tx, row.id, member.id);
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, row.id), row.id));
  });
}

/** Leave (before the deadline; not the organizer): the member's offers and rankings go with them. */
export async function leave(db: Db, member: Viewer, id: number): Promise<void> {
  await act(db, member, id, 'leave', 'share', async (tx, row, access) => {
    if (!access.joined) return;
    await deleteMember(tx, row.id, member.id);
    const others = await findMemberIds(tx, row.id);
    await publishMemberEvents(tx, swapDayEvents([member.id, ...others], row.id));
  });
}

/**
 * Offer items (your own, active, not reserved; at most SWAP_DAY_MAX_OFFERS_PER_MEMBER in all).
 * Items offered already stay as they are.
 */
export async function offer(db: Db, member: Viewer, id: number, input: OfferInput): Promise<void> {
  await act(db, member, id, 'offer', 'share', async (tx, row) => {
    // FOR SHARE until the transaction ends: none is reserved between this check and the insert.
    const locked = new Map(
      (await lockItemsInIdOrder(tx, input.itemIds, 'share')).map((item) => [item.id, item]),
    );
    const chosen = input.itemIds.map((itemId) => locked.get(itemId));
    if (chosen.some((item) => !item || item.userId !== member.id)) {
      throw badRequest('Offer only your own items.', SWAP_DAY_ERROR_CODES.invalidItems);
    }
    if (chosen.some((item) => !item?.isActive || item.reservedByRequestId !== null)) {
      throw conflict(
        'An item you chose is no longer available: it is hidden or reserved in an accepted barter.',
        SWAP_DAY_ERROR_CODES.itemUnavailable,
      );
    }
    const offered = new Set(await findOfferedIdsOf(tx, row.id, member.id));
    const added = input.itemIds.filter((itemId) => !offered.has(itemId));
    if (offered.size + added.length > SWAP_DAY_MAX_OFFERS_PER_MEMBER) {
      throw conflict(
        `You can offer at most ${SWAP_DAY_MAX_OFFERS_PER_MEMBER} items at one swap day.`,
        SWAP_DAY_ERROR_CODES.limit,
      );
    }
    if (added.length === 0) return;
    await insertOffers(tx, row.id, member.id, added);
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, row.id), row.id));
  });
}

const offerNotFound = () => notFound('You have not offered this item at this swap day.');

/** Withdraw one of your offers: every ranking naming it goes too. */
export async function withdraw(db: Db, member: Viewer, id: number, itemId: number): Promise<void> {
  await act(db, member, id, 'offer', 'share', async (tx, row) => {
    const owners = await findOfferOwners(tx, row.id, [itemId]);
    if (owners.get(itemId) !== member.id) throw offerNotFound();
    await deleteOffers(tx, row.id, [itemId]);
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, row.id), row.id));
  });
}

/**
 * Rank what you would accept for one of your offers, most wanted first (replaces the list): only
 * items other members offer at this swap day (not yours, none of a member hidden from you).
 */
export async function rank(
  db: Db,
  member: Viewer,
  id: number,
  itemId: number,
  input: WantsInput,
): Promise<void> {
  await act(db, member, id, 'offer', 'share', async (tx, row) => {
    const owners = await findOfferOwners(tx, row.id, [itemId, ...input.wantedItemIds]);
    if (owners.get(itemId) !== member.id) throw offerNotFound();
    const hidden = await findHiddenFrom(tx, member.id);
    for (const wantedId of input.wantedItemIds) {
      const owner = owners.get(wantedId);
      if (owner === member.id) {
        throw badRequest('You cannot rank your own items.', SWAP_DAY_ERROR_CODES.invalidItems);
      }
      if (owner === undefined || hidden.has(owner)) {
        throw badRequest(
          'You can rank only items other members offer at this swap day.',
          SWAP_DAY_ERROR_CODES.invalidItems,
        );
      }
    }
    await replaceRanking(tx, row.id, itemId, input.wantedItemIds);
    await publishMemberEvents(tx, swapDayEvents([member.id], row.id));
  });
}

/** Cancel (the organizer, before matching): nothing is matched; every member's page is told. */
export async function cancel(db: Db, member: Viewer, id: number): Promise<void> {
  await act(db, member, id, 'cancel', 'no key update', async (tx, row) => {
    await updateSwapDay(tx, row.id, { status: 'cancelled' });
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, row.id), row.id));
  });
}

/**
 * Close want lists and hand the swap day to the match job (the organizer, before it is matched,
 * deadline or not; again after a failed match): 'matching', waiting, committed at once (ADR 050).
 * The caller asks the job queue for a run (`askForMatch`); every member's page is told.
 */
export async function closeAndMatch(db: Db, member: Viewer, id: number): Promise<void> {
  await act(db, member, id, 'close', 'no key update', async (tx, row) => {
    await updateSwapDay(tx, row.id, { status: 'matching', matchStage: 'waiting', matchFailure: null });
    await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, row.id), row.id));
  });
}

/** The most swap days one sweep hands to the match job (the next sweep takes the rest). */
const DUE_BATCH = 100;

/**
 * Hand every open swap day whose deadline passed to the match job (the periodic sweep): each is set
 * 'matching' and its members' pages told, in one short transaction; rows a member is changing are
 * left for the next sweep. Never solves here. How many were handed over.
 */
export async function closeDueSwapDays(db: Db, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const ids = await markDueMatching(tx, now, DUE_BATCH);
    for (const id of ids) await publishMemberEvents(tx, swapDayEvents(await findMemberIds(tx, id), id));
    return ids.length;
  });
}
