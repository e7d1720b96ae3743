import type { Db } from '../../db/client';

/**
 * What a barter's actions ask of the circle its hand-over belongs to (issue 16). Circles build on
 * barters (a circle's hand-overs are barters, written by hand-overs.ts), so barters do not import
 * circles: circles hand their answers over when the app starts (`ownHandOverCircles`, in circlesPlugin), and a
 * hand-over of a circle asks here (ADR 065).
 */
export interface HandOverCircles {
  /** A hand-over was cancelled: its accepted circle stops ('cancelled'). */
  cancelled(tx: Db, circleId: number, closedById: string, now: Date): Promise<void>;
  /**
   * A member missed a hand-over of the accepted circle (a no-show settled as missed, ADR 081), after
   * barters cancelled its open hand-overs and released their items (`released`): the circle closes and
   * those left are offered a circle in its place, in the same transaction.
   */
  missed(tx: Db, circleId: number, memberId: string, released: readonly number[], now: Date): Promise<void>;
  /** A hand-over completed: the circle completes once none of its hand-overs is still open. */
  completed(tx: Db, circleId: number, now: Date): Promise<void>;
  /**
   * The members of the circle's shared conversation, each with their own hand-over (where their bell
   * entries point); empty when the circle has none (a swap-day loop: one conversation per hand-over).
   */
  conversation(db: Db, circleId: number): Promise<Array<{ userId: string; requestId: number }>>;
}

let owner: HandOverCircles | null = null;

/** Circles answer for the circles of hand-overs (called once at start; again with the same is harmless). */
export function ownHandOverCircles(circles: HandOverCircles): void {
  owner = circles;
}

/** The owner of the circles of hand-overs; a barter of a circle before circles are in place is a bug. */
export function handOverCircles(): HandOverCircles {
  if (!owner) throw new Error('No owner of the circles of hand-overs: call ownHandOverCircles at start');
  return owner;
}
