import {
  SWAP_DAY_ACTIONS,
  SWAP_DAY_ERROR_CODES,
  type SwapDayAction,
  type SwapDayStatus,
} from '#common/schemas/swap-days.ts';
import type { SwapDayRow } from '../../db/schema/trading';
import { conflict, forbidden, type HttpError, notFound } from '../../errors';

/** What the rules need about a swap day and its viewer. */
export interface SwapDayAccess {
  row: Pick<SwapDayRow, 'status' | 'deadline' | 'organiserId'>;
  viewerId: string;
  joined: boolean;
  /** The viewer may see it: organizer, member, or within their travel distance (no block between). */
  visible: boolean;
}

/** Unknown and not yours to see answer alike. */
export const swapDayNotFound = () => notFound('Swap day not found.');

/** Stored states other than 'open' read as themselves (ADR 050). */
const SETTLED: ReadonlySet<string> = new Set<SwapDayStatus>(['matching', 'solved', 'failed', 'cancelled']);

/**
 * The state a viewer sees: an open swap day past its deadline is 'closed' until the sweep hands it
 * to the match job ('matching').
 */
export function viewStatus(row: Pick<SwapDayRow, 'status' | 'deadline'>, now: Date): SwapDayStatus {
  if (SETTLED.has(row.status)) return row.status as SwapDayStatus;
  return row.deadline.getTime() <= now.getTime() ? 'closed' : 'open';
}

/**
 * Why `action` is refused now, as the error to throw; null when it is allowed. The one place the
 * swap day's rules live: the service asks before acting, the presenter lists what is allowed.
 */
export function refusal(action: SwapDayAction, access: SwapDayAccess, now: Date): HttpError | null {
  const { row, joined } = access;
  const isOrganiser = row.organiserId !== null && row.organiserId === access.viewerId;
  if (!access.visible && !joined && !isOrganiser) return swapDayNotFound();
  const status = viewStatus(row, now);
  const closedBecause = (): HttpError =>
    conflict(
      status === 'solved'
        ? 'This swap day was already matched.'
        : status === 'matching'
          ? 'This swap day is being matched.'
          : status === 'cancelled'
            ? 'This swap day was canceled.'
            : 'Want lists for this swap day are closed.',
      SWAP_DAY_ERROR_CODES.closed,
    );
  switch (action) {
    case 'join':
      return status === 'open' ? null : closedBecause();
    case 'leave':
      if (status !== 'open') return closedBecause();
      if (isOrganiser) {
        return conflict(
          'You organize this swap day, so you cannot leave it. Cancel it instead.',
          SWAP_DAY_ERROR_CODES.organiserStays,
        );
      }
      return null;
    case 'offer':
      if (status !== 'open') return closedBecause();
      return joined ? null : conflict('Join this swap day first.', SWAP_DAY_ERROR_CODES.notJoined);
    case 'close':
    case 'cancel':
      if (!isOrganiser) {
        return forbidden(
          action === 'close'
            ? 'Only the organizer can close want lists early.'
            : 'Only the organizer can cancel this swap day.',
          SWAP_DAY_ERROR_CODES.organiserOnly,
        );
      }
      // Closing again after a failed match tries again; cancelling stays possible then too.
      return row.status === 'open' || row.status === 'failed' ? null : closedBecause();
  }
}

/**
 * What the viewer may do now. Join and leave are offered only when they change something (not to a
 * member, not to someone who has not joined).
 */
export function allowedActions(access: SwapDayAccess, now: Date): SwapDayAction[] {
  return SWAP_DAY_ACTIONS.filter((action) => {
    if (action === 'join' && access.joined) return false;
    if (action === 'leave' && !access.joined) return false;
    return refusal(action, access, now) === null;
  });
}
