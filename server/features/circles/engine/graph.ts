/**
 * The trade graph the circle engine solves (ADR 028): items, each offered by an owner, and wants
 * "`from`'s owner would give `from` to receive `to`". A trade is a set of disjoint cycles
 * from -> to -> ... -> from: every item in it goes to the owner of the item before it.
 */
export interface TradeItem {
  name: string;
  owner: string;
  /** A TradeMaximizer dummy (`%...`): links wants, never counts as a traded item. */
  dummy: boolean;
}

export interface TradeWant {
  from: number;
  to: number;
  /** Preference cost: lower is better (TradeMaximizer's priorities). */
  cost: number;
}

export interface TradeGraph {
  items: TradeItem[];
  wants: TradeWant[];
}

/** One loop of a solution, as item indices in order: each receives the next, the last the first. */
export type TradeLoop = number[];

export interface TradeSolution {
  loops: TradeLoop[];
  /** Real (not dummy) items that change hands. */
  itemsTraded: number;
  /** Owners who give at least one real item. */
  membersTrading: number;
  /** Sum of the costs of the wants used. */
  cost: number;
}

/** Count what a set of loops trades. */
export function summarise(graph: TradeGraph, loops: TradeLoop[], cost: number): TradeSolution {
  let itemsTraded = 0;
  const owners = new Set<string>();
  for (const loop of loops) {
    for (const index of loop) {
      const item = graph.items[index];
      if (!item || item.dummy) continue;
      itemsTraded++;
      owners.add(item.owner);
    }
  }
  return { loops, itemsTraded, membersTrading: owners.size, cost };
}

/** Follow chosen successors (item -> the item it receives) into loops. */
export function loopsFromSuccessors(successor: Map<number, number>): TradeLoop[] {
  const loops: TradeLoop[] = [];
  const done = new Set<number>();
  for (const start of [...successor.keys()].sort((a, b) => a - b)) {
    if (done.has(start)) continue;
    const loop: number[] = [];
    let at: number | undefined = start;
    while (at !== undefined && !done.has(at)) {
      done.add(at);
      loop.push(at);
      at = successor.get(at);
    }
    if (at === start && loop.length > 1) loops.push(loop);
  }
  return loops;
}
