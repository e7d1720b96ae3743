import {
  CIRCLE_STATUSES,
  type Circle,
  type CircleAction,
  type CircleItem,
  type CircleStatus,
} from '#common/schemas/circles.ts';
import { presentMemberRef } from '../member-refs';
import type { CircleView } from './circles-repository';

const isStatus = (status: string): status is CircleStatus =>
  (CIRCLE_STATUSES as readonly string[]).includes(status);

type Step = CircleView['steps'][number];

function presentItem(step: Step | undefined): CircleItem {
  return {
    id: step?.itemExists ? step.itemId : null,
    title: step?.title ?? '',
    category: step?.category ?? '',
    isService: step?.isService ?? false,
    thumbnailUrl: step?.itemExists ? step.thumbnailUrl : null,
    estimatedValue: step?.value ?? null,
  };
}

/**
 * A circle as `viewerId` (one of its members) sees it. A whitelist: members as references (never
 * an e-mail or a position), the items as proposed, what the viewer gives and gets, and what they
 * may do. A proposed circle past its three days shows as expired before the sweep marks it.
 */
export function presentCircle(view: CircleView, viewerId: string, now: Date): Circle {
  const { row, steps } = view;
  if (!isStatus(row.status)) throw new Error(`Unknown circle status ${row.status}`);
  const overdue = row.status === 'proposed' && row.expiresAt.getTime() <= now.getTime();
  const status: CircleStatus = overdue ? 'expired' : row.status;
  const n = steps.length;
  const at = Math.max(
    0,
    steps.findIndex((step) => step.memberId === viewerId),
  );
  const mine = steps[at];
  const next = steps[(at + 1) % n];
  const previous = steps[(at + n - 1) % n];
  const actions: CircleAction[] = [];
  if (status === 'proposed') {
    if (mine?.acceptedAt === null) actions.push('accept');
    actions.push('decline');
  }
  const closer = steps.find((step) => row.closedById !== null && step.memberId === row.closedById);
  return {
    id: row.id,
    status,
    steps: steps.map((step) => ({
      member: presentMemberRef(step.member),
      me: step.memberId === viewerId,
      gives: presentItem(step),
      accepted: step.acceptedAt !== null,
    })),
    give: { item: presentItem(mine), to: presentMemberRef(next?.member) },
    get: { item: presentItem(previous), from: presentMemberRef(previous?.member) },
    expiresAt: status === 'proposed' ? row.expiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    allowedActions: actions,
    giveBarterId: mine?.barterRequestId ?? null,
    getBarterId: previous?.barterRequestId ?? null,
    threadId: row.threadId,
    closedBy: row.status === 'declined' && closer ? presentMemberRef(closer.member) : null,
    swapDayId: row.swapDayId,
    replacesId: row.replacesId,
  };
}
