// No zod here: the web app's barter screens import the machine without the schemas.

/**
 * The barter state machine (issue 13, docs/product.md "Barters"): every state a barter request can
 * be in, every action, who may take it from where, and where it leads. The server enforces it
 * (server/features/barters: a wrong action answers 409) and sends each viewer the actions it allows
 * them (`allowedActions`), so the web shows exactly those buttons and never re-implements a rule.
 *
 *   pending --accept (recipient, items free)--> accepted --confirm x2--> completed --rate (each once)
 *      |--decline (recipient)--> declined           |--cancel (either, with a reason)--> cancelled
 *      |--counter (recipient)--> countered  (a new pending request, sides swapped, answers it)
 *      |--withdraw (sender)--> withdrawn
 *      '--14 days pass--> expired
 *
 * Messages can be sent by either side in every state, once the proposal exists.
 */

export const BARTER_STATUSES = [
  'pending',
  'accepted',
  'completed',
  'declined',
  'withdrawn',
  'countered',
  'cancelled',
  'expired',
] as const;
export type BarterStatus = (typeof BARTER_STATUSES)[number];

export const BARTER_ACTIONS = [
  'accept',
  'decline',
  'counter',
  'withdraw',
  'cancel',
  'confirm',
  'rate',
  'message',
] as const;
export type BarterAction = (typeof BARTER_ACTIONS)[number];

/** The viewer's side: the sender made the request, the recipient received it. */
export type BarterRole = 'sender' | 'recipient';

/** A pending proposal expires this long after it was made. */
export const PENDING_EXPIRY_DAYS = 14;
export const PENDING_EXPIRY_MS = PENDING_EXPIRY_DAYS * 24 * 60 * 60 * 1000;

/** Most items on one side of a proposal. */
export const BARTER_MAX_ITEMS_PER_SIDE = 10;

/** What the machine needs to know about a request and the viewer to decide. */
export interface BarterContext {
  status: BarterStatus;
  role: BarterRole;
  /** A pending request whose 14 days are over (the sweep may not have marked it yet). */
  expired: boolean;
  /** Every item of both sides still exists, is active and is not reserved by another barter. */
  itemsAvailable: boolean;
  /** The viewer confirmed completion of this accepted barter already. */
  confirmedByMe: boolean;
  /** The other side confirmed completion already. */
  confirmedByOther: boolean;
  /** The viewer rated the other side of this completed barter already. */
  ratedByMe: boolean;
}

interface Rule {
  from: readonly BarterStatus[];
  by: readonly BarterRole[];
  /** Further condition on the context, beyond status and role. */
  when?: (context: BarterContext) => boolean;
  /**
   * `when` reads the facts beyond the request's row (`itemsAvailable`, `ratedByMe`), which the server
   * reads from other tables; a rule without this mark decides from the row alone.
   */
  readsFacts?: true;
}

const BOTH: readonly BarterRole[] = ['sender', 'recipient'];
const live = (context: BarterContext) => !context.expired;

const RULES: Record<BarterAction, Rule> = {
  accept: {
    from: ['pending'],
    by: ['recipient'],
    when: (c) => live(c) && c.itemsAvailable,
    readsFacts: true,
  },
  decline: { from: ['pending'], by: ['recipient'], when: live },
  counter: { from: ['pending'], by: ['recipient'], when: live },
  withdraw: { from: ['pending'], by: ['sender'], when: live },
  cancel: { from: ['accepted'], by: BOTH },
  confirm: { from: ['accepted'], by: BOTH, when: (c) => !c.confirmedByMe },
  rate: { from: ['completed'], by: BOTH, when: (c) => !c.ratedByMe, readsFacts: true },
  message: { from: BARTER_STATUSES, by: BOTH },
};

/** Whether the viewer may take `action` now. */
export function canTake(action: BarterAction, context: BarterContext): boolean {
  const rule = RULES[action];
  return (
    rule.from.includes(context.status) && rule.by.includes(context.role) && (rule.when?.(context) ?? true)
  );
}

/**
 * Whether deciding `action` needs the facts beyond the request's row (its items, the viewer's
 * rating). When it does not, the server need not read them (a message: ADR 104).
 */
export function readsFacts(action: BarterAction): boolean {
  return RULES[action].readsFacts === true;
}

/** Every action the viewer may take now, in BARTER_ACTIONS order. */
export function allowedActions(context: BarterContext): BarterAction[] {
  return BARTER_ACTIONS.filter((action) => canTake(action, context));
}

/**
 * The status `action` leads to, or null when the viewer may not take it. Confirming leads to
 * 'completed' when the other side confirmed already, else the barter stays 'accepted'.
 */
export function nextStatus(action: BarterAction, context: BarterContext): BarterStatus | null {
  if (!canTake(action, context)) return null;
  switch (action) {
    case 'accept':
      return 'accepted';
    case 'decline':
      return 'declined';
    case 'counter':
      return 'countered';
    case 'withdraw':
      return 'withdrawn';
    case 'cancel':
      return 'cancelled';
    case 'confirm':
      return context.confirmedByOther ? 'completed' : 'accepted';
    case 'rate':
    case 'message':
      return context.status;
  }
}

/** What the machine reads of a stored request (the server's row, as the database gives it). */
export interface StoredBarter {
  status: string;
  fromUserId: string | null;
  expiresAt: Date | null;
  fromConfirmedAt: Date | null;
  toConfirmedAt: Date | null;
}

/** An item of a request as the machine sees it: it exists, is listed, and who holds it. */
export interface BarterItemState {
  exists: boolean;
  isActive: boolean;
  reservedByRequestId: number | null;
}

const isStatus = (status: string): status is BarterStatus =>
  (BARTER_STATUSES as readonly string[]).includes(status);

/** The request's stored status, checked against the machine's list. */
export function statusOf(row: Pick<StoredBarter, 'status'>): BarterStatus {
  if (!isStatus(row.status)) throw new Error(`Unknown barter status ${row.status}`);
  return row.status;
}

/** The viewer's side of a request they take part in. */
export function roleOf(row: Pick<StoredBarter, 'fromUserId'>, viewerId: string): BarterRole {
  return row.fromUserId === viewerId ? 'sender' : 'recipient';
}

/** A pending request whose expiry has passed at `now`, marked by the sweep or not. */
export function isOverdue(row: Pick<StoredBarter, 'status' | 'expiresAt'>, now: Date): boolean {
  return row.status === 'pending' && row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
}

/** The item can change hands in this request: it exists, is active and no other barter holds it. */
export function itemAvailable(item: BarterItemState, requestId: number): boolean {
  return (
    item.exists &&
    item.isActive &&
    (item.reservedByRequestId === null || item.reservedByRequestId === requestId)
  );
}

/** Every item of the request (it has at least one) can change hands in it: `itemsAvailable`. */
export const allItemsAvailable = (items: readonly BarterItemState[], requestId: number): boolean =>
  items.length > 0 && items.every((item) => itemAvailable(item, requestId));

/** The machine's context of a stored request for the viewer, with the facts read beside it. */
export function barterContext(
  row: StoredBarter,
  viewerId: string,
  facts: { itemsAvailable: boolean; ratedByMe: boolean },
  now: Date,
): BarterContext {
  const role = roleOf(row, viewerId);
  const mine = role === 'sender' ? row.fromConfirmedAt : row.toConfirmedAt;
  const theirs = role === 'sender' ? row.toConfirmedAt : row.fromConfirmedAt;
  return {
    status: statusOf(row),
    role,
    expired: isOverdue(row, now),
    itemsAvailable: facts.itemsAvailable,
    confirmedByMe: mine !== null,
    confirmedByOther: theirs !== null,
    ratedByMe: facts.ratedByMe,
  };
}

/** States nothing moves on from (messages and, once completed, ratings aside). */
export const CLOSED_STATUSES: readonly BarterStatus[] = [
  'completed',
  'declined',
  'withdrawn',
  'countered',
  'cancelled',
  'expired',
];

/**
 * The Barters screen's four lists. A countered request is left out: the counter that answers it
 * stands for it (its page links back).
 */
export const BARTER_BOXES = ['incoming', 'outgoing', 'active', 'past'] as const;
export type BarterBox = (typeof BARTER_BOXES)[number];

export const BARTER_BOX_STATUSES: Record<BarterBox, readonly BarterStatus[]> = {
  incoming: ['pending'],
  outgoing: ['pending'],
  active: ['accepted'],
  past: ['completed', 'declined', 'withdrawn', 'cancelled', 'expired'],
};

/** What the web shows for each state. */
export const BARTER_STATUS_LABELS: Record<BarterStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  completed: 'Completed',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
  countered: 'Countered',
  cancelled: 'Canceled',
  expired: 'Expired',
};

/** The buttons of each action (message and rate have their own forms). */
export const BARTER_ACTION_LABELS: Record<BarterAction, string> = {
  accept: 'Accept',
  decline: 'Decline',
  counter: 'Counter',
  withdraw: 'Withdraw',
  cancel: 'Cancel barter',
  confirm: 'Confirm completed',
  rate: 'Rate',
  message: 'Send',
};
