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

/**
 * The strongly connected component of each item in the wants' graph (Tarjan's algorithm, without
 * recursion). A want between two components lies on no loop, and neither does an item alone in its
 * component without a want to itself: the solvers leave both out.
 */
export function strongComponents(graph: TradeGraph): Int32Array {
  const n = graph.items.length;
  const firstOut = new Int32Array(n + 1);
  for (const want of graph.wants) firstOut[want.from + 1] = (firstOut[want.from + 1] as number) + 1;
  for (let v = 0; v < n; v++) firstOut[v + 1] = (firstOut[v + 1] as number) + (firstOut[v] as number);
  const heads = new Int32Array(graph.wants.length);
  const fill = firstOut.slice(0, n);
  for (const want of graph.wants) {
    const at = fill[want.from] as number;
    heads[at] = want.to;
    fill[want.from] = at + 1;
  }
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const callStack: number[] = [];
  const nextArc = new Int32Array(n);
  let counter = 0;
  let components = 0;
  for (let start = 0; start < n; start++) {
    if ((index[start] as number) >= 0) continue;
    callStack.push(start);
    index[start] = low[start] = counter++;
    nextArc[start] = firstOut[start] as number;
    stack.push(start);
    onStack[start] = 1;
    while (callStack.length > 0) {
      const v = callStack[callStack.length - 1] as number;
      const arc = nextArc[v] as number;
      if (arc < (firstOut[v + 1] as number)) {
        nextArc[v] = arc + 1;
        const w = heads[arc] as number;
        if ((index[w] as number) < 0) {
          index[w] = low[w] = counter++;
          nextArc[w] = firstOut[w] as number;
          stack.push(w);
          onStack[w] = 1;
          callStack.push(w);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v] as number, index[w] as number);
        }
        continue;
      }
      callStack.pop();
      const caller = callStack[callStack.length - 1];
      if (caller !== undefined) low[caller] = Math.min(low[caller] as number, low[v] as number);
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop() as number;
          onStack[w] = 0;
          component[w] = components;
        } while (w !== v);
        components++;
      }
    }
  }
  return component;
}

/** The graph with only the wants that can lie on a loop (both ends in one strong component). */
export function wantsOnLoops(graph: TradeGraph): TradeGraph {
  const component = strongComponents(graph);
  return {
    items: graph.items,
    wants: graph.wants.filter((want) => component[want.from] === component[want.to]),
  };
}
