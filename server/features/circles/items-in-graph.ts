import type { Db } from '../../db/client';

/**
 * What a heal of an accepted circle (ADR 081) asks of the match graph: the circle's items were
 * reserved, so the graph left them out; the heal releases them and must find circles through them in
 * the same transaction, before the drain sees the release. The match graph builds on circles (it asks
 * the finder to look again), so circles do not import it: it hands its answer over at start
 * (`ownItemsInGraph`, in matchGraphPlugin), as barters are answered for circles (ADR 065).
 */
export interface ItemsInGraph {
  /** Put these items' matches back in the graph now, inside `tx` (listed ones; idempotent). */
  relist(tx: Db, itemIds: readonly number[]): Promise<void>;
}

let owner: ItemsInGraph | null = null;

/** The match graph answers for putting items back (called once at start; again is harmless). */
export function ownItemsInGraph(graph: ItemsInGraph): void {
  owner = graph;
}

/** The owner of putting items back in the graph; a heal before the graph is in place is a bug. */
export function itemsInGraph(): ItemsInGraph {
  if (!owner) throw new Error('No owner of items in the match graph: call ownItemsInGraph at start');
  return owner;
}
