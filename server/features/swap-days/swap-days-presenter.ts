import { BARTER_STATUSES, type BarterStatus } from '#common/barter-machine.ts';
import type {
  SwapDay,
  SwapDayHandOver,
  SwapDayItem,
  SwapDaySheet,
  SwapDaySummary,
} from '#common/schemas/swap-days.ts';
import { presentMemberRef } from '../member-refs';
import { allowedActions, type SwapDayAccess, viewStatus } from './swap-day-policy';
import type { HandOverRow, OfferRow, SwapDaySummaryRow } from './swap-days-repository';

/** A swap day in a list, for `viewerId`: never its point, a rounded distance at most. */
export function presentSummary(summary: SwapDaySummaryRow, viewerId: string, now: Date): SwapDaySummary {
  const { row } = summary;
  return {
    id: row.id,
    name: row.name,
    place: row.place,
    startsAt: row.startsAt.toISOString(),
    deadline: row.deadline.toISOString(),
    status: viewStatus(row, now),
    organiser: presentMemberRef(summary.organiser),
    isOrganiser: row.organiserId !== null && row.organiserId === viewerId,
    joined: summary.joined,
    memberCount: summary.memberCount,
    distanceMiles: summary.distanceMiles === null ? null : Math.round(summary.distanceMiles * 10) / 10,
  };
}

const barterStatus = (status: string | null): BarterStatus | null =>
  status !== null && (BARTER_STATUSES as readonly string[]).includes(status)
    ? (status as BarterStatus)
    : null;

/** One step of a matched loop: who gives what to whom, in which loop (1, 2, ...). */
export interface HandOver {
  loop: number;
  giver: HandOverRow;
  receiver: HandOverRow;
}

/** The loops' steps as hand-overs: each member gives their item to the member at the next position. */
export function handOversOf(rows: readonly HandOverRow[]): HandOver[] {
  const byCircle = new Map<number, HandOverRow[]>();
  for (const row of rows) {
    const list = byCircle.get(row.circleId);
    if (list) list.push(row);
    else byCircle.set(row.circleId, [row]);
  }
  const handOvers: HandOver[] = [];
  let loop = 0;
  for (const steps of byCircle.values()) {
    loop++;
    steps.forEach((giver, index) => {
      const receiver = steps[(index + 1) % steps.length] as HandOverRow;
      handOvers.push({ loop, giver, receiver });
    });
  }
  return handOvers;
}

const handOverItem = (row: HandOverRow): SwapDayHandOver['item'] => ({
  id: row.itemId,
  title: row.title,
  category: row.category,
  isService: row.isService,
});

export interface SwapDayParts {
  summary: SwapDaySummaryRow;
  access: SwapDayAccess;
  members: Parameters<typeof presentMemberRef>[0][];
  offers: OfferRow[];
  /** The viewer's rankings by their offer. */
  rankings: Map<number, number[]>;
  offerable: Array<Omit<SwapDayItem, 'available'>>;
  handOvers: HandOver[];
  /** Members hidden from the viewer (blocks either way): their offers are left out. */
  hidden: Set<string>;
}

/** A swap day as the viewer sees it. */
export function presentSwapDay(parts: SwapDayParts, now: Date): SwapDay {
  const { summary, access } = parts;
  const viewerId = access.viewerId;
  const { row } = summary;
  const actions = allowedActions(access, now);
  const mine = (memberId: string | null) => memberId !== null && memberId === viewerId;
  return {
    ...presentSummary(summary, viewerId, now),
    members: parts.members
      .filter((member) => !member?.id || !parts.hidden.has(member.id))
      .map(presentMemberRef),
    offers: parts.offers
      .filter((offer) => !parts.hidden.has(offer.memberId))
      .map((offer) => ({
        item: {
          id: offer.itemId,
          title: offer.title,
          category: offer.category,
          isService: offer.isService,
          thumbnailUrl: offer.thumbnailUrl,
          available: offer.available,
        },
        owner: presentMemberRef(offer.owner),
        mine: mine(offer.memberId),
        wantedItemIds: mine(offer.memberId) ? (parts.rankings.get(offer.itemId) ?? []) : [],
      })),
    offerableItems: actions.includes('offer')
      ? parts.offerable.map((item) => ({ ...item, available: true }))
      : [],
    allowedActions: actions,
    matchStage: row.status === 'matching' ? ((row.matchStage ?? 'waiting') as SwapDay['matchStage']) : null,
    matchFailure: row.status === 'failed' ? ((row.matchFailure ?? 'error') as SwapDay['matchFailure']) : null,
    result:
      row.status === 'solved' && row.solvedAt
        ? {
            itemsTraded: row.itemsTraded ?? 0,
            membersTrading: row.membersTrading ?? 0,
            solvedAt: row.solvedAt.toISOString(),
            gives: parts.handOvers
              .filter((handOver) => mine(handOver.giver.memberId))
              .map(({ loop, giver, receiver }) => ({
                item: handOverItem(giver),
                member: presentMemberRef(receiver.member),
                barterId: giver.barterRequestId,
                barterStatus: barterStatus(giver.barterStatus),
                loop,
              })),
            gets: parts.handOvers
              .filter((handOver) => mine(handOver.receiver.memberId))
              .map(({ loop, giver }) => ({
                item: handOverItem(giver),
                member: presentMemberRef(giver.member),
                barterId: giver.barterRequestId,
                barterStatus: barterStatus(giver.barterStatus),
                loop,
              })),
          }
        : null,
  };
}

/**
 * The pick-up sheet: every hand-over grouped by giver (the organizer), or the lines the viewer gives
 * or receives (a member); givers by name, each giver's lines by loop.
 */
export function presentSheet(
  summary: SwapDaySummaryRow,
  viewerId: string,
  handOvers: readonly HandOver[],
  now: Date,
): SwapDaySheet {
  const complete = summary.row.organiserId !== null && summary.row.organiserId === viewerId;
  const lines = complete
    ? handOvers
    : handOvers.filter(
        (handOver) => handOver.giver.memberId === viewerId || handOver.receiver.memberId === viewerId,
      );
  const byGiver = new Map<string, { giver: ReturnType<typeof presentMemberRef>; lines: HandOver[] }>();
  for (const handOver of lines) {
    const key = handOver.giver.memberId ?? `former-${handOver.giver.circleId}-${handOver.giver.position}`;
    const group = byGiver.get(key);
    if (group) group.lines.push(handOver);
    else byGiver.set(key, { giver: presentMemberRef(handOver.giver.member), lines: [handOver] });
  }
  const givers = [...byGiver.values()].sort((a, b) =>
    a.giver.displayName.localeCompare(b.giver.displayName, 'en'),
  );
  return {
    swapDay: presentSummary(summary, viewerId, now),
    itemsTraded: summary.row.itemsTraded ?? 0,
    membersTrading: summary.row.membersTrading ?? 0,
    complete,
    givers: givers.map((group) => ({
      giver: group.giver,
      lines: group.lines.map((handOver) => ({
        receiver: presentMemberRef(handOver.receiver.member),
        item: handOverItem(handOver.giver),
        loop: handOver.loop,
      })),
    })),
  };
}
