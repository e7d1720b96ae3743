/**
 * A primal network simplex for uncapacitated minimum-cost flow (ADR 070): the algorithm
 * FastTradeMaximizer and LEMON use, with LEMON's data structures (a strongly feasible spanning tree
 * kept as parent, thread and subtree-size arrays; block-search pricing). Arc flows are unbounded
 * above, which is all the circle engine needs: its supplies are ±1, so no arc carries more than 1.
 *
 * Costs and supplies must be integers (the answer is then exact: every value stays an integer well
 * within a double's 2^53).
 */

export interface FlowProblem {
  /** Supply of each node (positive: gives, negative: receives); they must sum to 0. */
  supply: ArrayLike<number>;
  source: ArrayLike<number>;
  target: ArrayLike<number>;
  cost: ArrayLike<number>;
}

export class InfeasibleFlowError extends Error {}

const STATE_TREE = 0;
const STATE_LOWER = 1;
const DIR_UP = 1;
const DIR_DOWN = -1;

/**
 * The flow on each arc of a minimum-cost flow meeting every supply exactly.
 * Throws InfeasibleFlowError when no flow meets the supplies.
 */
export function minCostFlow(problem: FlowProblem): Float64Array {
  const nodeNum = problem.supply.length;
  const arcNum = problem.source.length;
  const allArcNum = arcNum + nodeNum;
  const root = nodeNum;

  const source = new Int32Array(allArcNum);
  const target = new Int32Array(allArcNum);
  const cost = new Float64Array(allArcNum);
  const flow = new Float64Array(allArcNum);
  const state = new Int8Array(allArcNum);
  let maxCost = 0;
  for (let e = 0; e < arcNum; e++) {
    source[e] = problem.source[e] as number;
    target[e] = problem.target[e] as number;
    const c = problem.cost[e] as number;
    cost[e] = c;
    state[e] = STATE_LOWER;
    maxCost = Math.max(maxCost, Math.abs(c));
  }
  let supplySum = 0;
  for (let u = 0; u < nodeNum; u++) supplySum += problem.supply[u] as number;
  if (supplySum !== 0) throw new InfeasibleFlowError('the supplies do not sum to 0');
  // An artificial arc's cost: more than any path of real arcs can cost.
  const artCost = (maxCost + 1) * (nodeNum + 1);

  const parent = new Int32Array(nodeNum + 1);
  const pred = new Int32Array(nodeNum + 1);
  const predDir = new Int8Array(nodeNum + 1);
  const thread = new Int32Array(nodeNum + 1);
  const revThread = new Int32Array(nodeNum + 1);
  const succNum = new Int32Array(nodeNum + 1);
  const lastSucc = new Int32Array(nodeNum + 1);
  const pi = new Float64Array(nodeNum + 1);
  const dirtyRevs: number[] = [];

  // The starting tree: every node hangs from the root by an artificial arc carrying its supply.
  parent[root] = -1;
  pred[root] = -1;
  thread[root] = 0;
  revThread[0] = root;
  succNum[root] = nodeNum + 1;
  lastSucc[root] = root - 1;
  pi[root] = 0;
  for (let u = 0, e = arcNum; u < nodeNum; u++, e++) {
    parent[u] = root;
    pred[u] = e;
    thread[u] = u + 1;
    revThread[u + 1] = u;
    succNum[u] = 1;
    lastSucc[u] = u;
    state[e] = STATE_TREE;
    const supply = problem.supply[u] as number;
    if (supply >= 0) {
      predDir[u] = DIR_UP;
      pi[u] = 0;
      source[e] = u;
      target[e] = root;
      flow[e] = supply;
      cost[e] = 0;
    } else {
      predDir[u] = DIR_DOWN;
      pi[u] = artCost;
      source[e] = root;
      target[e] = u;
      flow[e] = -supply;
      cost[e] = artCost;
    }
  }
  if (nodeNum === 0) return new Float64Array(0);
  if (arcNum === 0) {
    for (let u = 0; u < nodeNum; u++) {
      if (problem.supply[u] !== 0) throw new InfeasibleFlowError('no flow meets the supplies');
    }
    return new Float64Array(0);
  }

  // Block search pricing (LEMON's default): the best arc of the first block that has one.
  const blockSize = Math.max(Math.ceil(Math.sqrt(arcNum)), 10);
  let nextArc = 0;
  let inArc = 0;
  const findEnteringArc = (): boolean => {
    let min = 0;
    let count = blockSize;
    let e = nextArc;
    for (let scanned = 0; scanned < arcNum; scanned++) {
      const reduced =
        (state[e] as number) *
        ((cost[e] as number) + (pi[source[e] as number] as number) - (pi[target[e] as number] as number));
      if (reduced < min) {
        min = reduced;
        inArc = e;
      }
      e++;
      if (e === arcNum) e = 0;
      if (--count === 0) {
        if (min < 0) break;
        count = blockSize;
      }
    }
    if (min >= 0) return false;
    nextArc = e;
    return true;
  };

  let join = 0;
  let uIn = 0;
  let vIn = 0;
  let uOut = 0;
  let delta = 0;

  const findJoinNode = () => {
    let u = source[inArc] as number;
    let v = target[inArc] as number;
    while (u !== v) {
      if ((succNum[u] as number) < (succNum[v] as number)) u = parent[u] as number;
      else v = parent[v] as number;
    }
    join = u;
  };

  /** The leaving arc (the last blocking one along the cycle: strongly feasible). */
  const findLeavingArc = (): boolean => {
    const first = source[inArc] as number;
    const second = target[inArc] as number;
    delta = Number.POSITIVE_INFINITY;
    let result = 0;
    for (let u = first; u !== join; u = parent[u] as number) {
      // Flow runs from the join down to `first`: an arc pointing up loses it.
      if ((predDir[u] as number) === DIR_UP) {
        const d = flow[pred[u] as number] as number;
        if (d < delta) {
          delta = d;
          uOut = u;
          result = 1;
        }
      }
    }
    for (let u = second; u !== join; u = parent[u] as number) {
      if ((predDir[u] as number) === DIR_DOWN) {
        const d = flow[pred[u] as number] as number;
        if (d <= delta) {
          delta = d;
          uOut = u;
          result = 2;
        }
      }
    }
    if (result === 1) {
      uIn = first;
      vIn = second;
    } else {
      uIn = second;
      vIn = first;
    }
    return result !== 0;
  };

  const changeFlow = () => {
    if (delta > 0) {
      flow[inArc] = (flow[inArc] as number) + delta;
      for (let u = source[inArc] as number; u !== join; u = parent[u] as number)
        flow[pred[u] as number] = (flow[pred[u] as number] as number) - (predDir[u] as number) * delta;
      for (let u = target[inArc] as number; u !== join; u = parent[u] as number)
        flow[pred[u] as number] = (flow[pred[u] as number] as number) + (predDir[u] as number) * delta;
    }
    state[inArc] = STATE_TREE;
    state[pred[uOut] as number] = STATE_LOWER;
  };

  const updateTreeStructure = () => {
    const oldRevThread = revThread[uOut] as number;
    const oldSuccNum = succNum[uOut] as number;
    const oldLastSucc = lastSucc[uOut] as number;
    const vOut = parent[uOut] as number;

    if (uIn === uOut) {
      parent[uIn] = vIn;
      pred[uIn] = inArc;
      predDir[uIn] = uIn === (source[inArc] as number) ? DIR_UP : DIR_DOWN;
      if ((thread[vIn] as number) !== uOut) {
        let after = thread[oldLastSucc] as number;
        thread[oldRevThread] = after;
        revThread[after] = oldRevThread;
        after = thread[vIn] as number;
        thread[vIn] = uOut;
        revThread[uOut] = vIn;
        thread[oldLastSucc] = after;
        revThread[after] = oldLastSucc;
      }
    } else {
      // When oldRevThread is vIn, the join and vOut coincide.
      const threadContinue = oldRevThread === vIn ? (thread[oldLastSucc] as number) : (thread[vIn] as number);
      // Re-hang the stem (the nodes from uIn up to uOut), reversing it.
      let stem = uIn;
      let parStem = vIn;
      let last = lastSucc[uIn] as number;
      let after = thread[last] as number;
      thread[vIn] = uIn;
      dirtyRevs.length = 0;
      dirtyRevs.push(vIn);
      while (stem !== uOut) {
        const nextStem = parent[stem] as number;
        thread[last] = nextStem;
        dirtyRevs.push(last);
        const before = revThread[stem] as number;
        thread[before] = after;
        revThread[after] = before;
        parent[stem] = parStem;
        parStem = stem;
        stem = nextStem;
        last =
          (lastSucc[stem] as number) === (lastSucc[parStem] as number)
            ? (revThread[parStem] as number)
            : (lastSucc[stem] as number);
        after = thread[last] as number;
      }
      parent[uOut] = parStem;
      thread[last] = threadContinue;
      revThread[threadContinue] = last;
      lastSucc[uOut] = last;
      if (oldRevThread !== vIn) {
        thread[oldRevThread] = after;
        revThread[after] = oldRevThread;
      }
      for (const u of dirtyRevs) revThread[thread[u] as number] = u;
      let sc = 0;
      const ls = lastSucc[uOut] as number;
      for (let u = uOut, p = parent[u] as number; u !== uIn; u = p, p = parent[u] as number) {
        pred[u] = pred[p] as number;
        predDir[u] = -(predDir[p] as number);
        sc += (succNum[u] as number) - (succNum[p] as number);
        succNum[u] = sc;
        lastSucc[p] = ls;
      }
      pred[uIn] = inArc;
      predDir[uIn] = uIn === (source[inArc] as number) ? DIR_UP : DIR_DOWN;
      succNum[uIn] = oldSuccNum;
    }

    const upLimitOut = (lastSucc[join] as number) === vIn ? join : -1;
    const lastSuccOut = lastSucc[uOut] as number;
    for (let u = vIn; u !== -1 && (lastSucc[u] as number) === vIn; u = parent[u] as number)
      lastSucc[u] = lastSuccOut;
    if (join !== oldRevThread && vIn !== oldRevThread) {
      for (let u = vOut; u !== upLimitOut && (lastSucc[u] as number) === oldLastSucc; u = parent[u] as number)
        lastSucc[u] = oldRevThread;
    } else if (lastSuccOut !== oldLastSucc) {
      for (let u = vOut; u !== upLimitOut && (lastSucc[u] as number) === oldLastSucc; u = parent[u] as number)
        lastSucc[u] = lastSuccOut;
    }
    for (let u = vIn; u !== join; u = parent[u] as number) succNum[u] = (succNum[u] as number) + oldSuccNum;
    for (let u = vOut; u !== join; u = parent[u] as number) succNum[u] = (succNum[u] as number) - oldSuccNum;
  };

  const updatePotential = () => {
    const sigma =
      (pi[vIn] as number) - (pi[uIn] as number) - (predDir[uIn] as number) * (cost[inArc] as number);
    const end = thread[lastSucc[uIn] as number] as number;
    for (let u = uIn; u !== end; u = thread[u] as number) pi[u] = (pi[u] as number) + sigma;
  };

  while (findEnteringArc()) {
    findJoinNode();
    if (!findLeavingArc()) {
      // Uncapacitated and nothing blocks: a negative cycle of unbounded flow.
      throw new InfeasibleFlowError('the cost is unbounded below (a negative cycle)');
    }
    changeFlow();
    updateTreeStructure();
    updatePotential();
  }

  for (let e = arcNum; e < allArcNum; e++) {
    if ((flow[e] as number) > 0) throw new InfeasibleFlowError('no flow meets the supplies');
  }
  return flow.slice(0, arcNum);
}
