/**
 * Kidney-exchange pools read into a TradeGraph, to check the circle engine against published
 * kidney-exchange optima (issue 16, ADR 028; the instances are in ./fixtures/kidney/).
 *
 * A pool has vertices, each a donor-patient pair or an altruist (a non-directed donor, NDD: a donor
 * without a patient), and arcs "the donor of `from` can give to the patient of `to`". Two formats:
 *
 * - PrefLib's kidney data (Dickerson's pools, MD-00001, once 00036): a `.wmd` file, either the 2013
 *   layout (`n,m`, then `n` lines `k,Pair k` / `k,Alturist k`, then arcs `from,to,weight` numbered
 *   from 0) or the 2022 one (`# NUMBER ALTERNATIVES: n`, `# ALTERNATIVE NAME k: ...` comments, arcs
 *   numbered from 1), with its optional `.dat` (CSV whose `Altruist` column says which vertices are
 *   altruists). Arcs into an altruist (weight 0, "the chain ends here") are left out, as is any other
 *   arc of weight 0 (as KidneyExchange.jl reads these files).
 * - kidney_solver's (James Trimble; the Saidman generator's): `.input` is `n m`, `m` arcs
 *   `from to weight` between pairs numbered from 0, then `-1 -1 -1`; the optional `.ndds` is
 *   `k m`, `m` arcs `altruist pair weight`, then `-1 -1 -1`.
 *
 * Weights are otherwise not used: the published optima count transplants. Malformed files are errors
 * with their line number.
 */
import type { TradeGraph, TradeItem, TradeWant } from './graph';

export class KidneyFormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export interface KidneyVertex {
  name: string;
  altruist: boolean;
}

export interface KidneyPool {
  vertices: KidneyVertex[];
  /** "The donor of `from` can give to the patient of `to`" (vertex indices; never into an altruist). */
  arcs: Array<{ from: number; to: number }>;
}

/** Lines with their 1-based numbers, blank ones dropped. */
function numberedLines(text: string) {
  return text
    .split(/\r?\n/)
    .map((content, index) => ({ content: content.trim(), line: index + 1 }))
    .filter((entry) => entry.content !== '');
}

function integer(token: string | undefined, line: number, what: string): number {
  if (token === undefined || !/^-?\d+$/.test(token)) {
    throw new KidneyFormatError(
      `expected ${what}, found ${token === undefined ? 'nothing' : `"${token}"`}`,
      line,
    );
  }
  return Number(token);
}

function weight(token: string | undefined, line: number): number {
  const value = Number(token);
  if (token === undefined || token === '' || !Number.isFinite(value)) {
    throw new KidneyFormatError(
      `expected a weight, found ${token === undefined ? 'nothing' : `"${token}"`}`,
      line,
    );
  }
  return value;
}

/**
 * Collects arcs, refusing self-loops, duplicates and vertices out of range (as kidney_solver does);
 * messages number vertices as the file does (from `base`).
 */
class ArcSet {
  readonly arcs: Array<{ from: number; to: number }> = [];
  private readonly seen = new Set<number>();

  constructor(
    private readonly size: number,
    private readonly base = 0,
  ) {}

  add(from: number, to: number, line: number): void {
    for (const vertex of [from, to]) {
      if (vertex < 0 || vertex >= this.size)
        throw new KidneyFormatError(`vertex ${vertex + this.base} is out of range`, line);
    }
    if (from === to) throw new KidneyFormatError(`an arc from ${from + this.base} to itself`, line);
    const key = from * this.size + to;
    if (this.seen.has(key))
      throw new KidneyFormatError(`a second arc from ${from + this.base} to ${to + this.base}`, line);
    this.seen.add(key);
    this.arcs.push({ from, to });
  }
}

/** Read a PrefLib kidney pool: its `.wmd` text, and its `.dat` text if there is one. */
export function parsePreflibKidney(wmd: string, dat?: string): KidneyPool {
  const lines = numberedLines(wmd);
  const first = lines[0];
  if (!first) throw new KidneyFormatError('the file is empty', 1);
  const vertices: KidneyVertex[] = [];
  let declaredArcs: number;
  let base: number;
  let body: typeof lines;
  if (first.content.startsWith('#')) {
    // 2022 layout: metadata comments, then arcs numbered from 1.
    const fields = new Map<string, { value: string; line: number }>();
    for (const entry of lines) {
      const match = /^#\s*([^:]+):(.*)$/.exec(entry.content);
      if (match)
        fields.set((match[1] as string).trim().toUpperCase(), {
          value: (match[2] as string).trim(),
          line: entry.line,
        });
    }
    const count = fields.get('NUMBER ALTERNATIVES');
    const edges = fields.get('NUMBER EDGES');
    if (!count || !edges) throw new KidneyFormatError('no NUMBER ALTERNATIVES or NUMBER EDGES', first.line);
    const n = integer(count.value, count.line, 'a number of vertices');
    declaredArcs = integer(edges.value, edges.line, 'a number of arcs');
    for (let k = 1; k <= n; k++) {
      const name = fields.get(`ALTERNATIVE NAME ${k}`)?.value ?? `Pair ${k}`;
      vertices.push({ name, altruist: /^al(truist|turist)/i.test(name) });
    }
    base = 1;
    body = lines.filter((entry) => !entry.content.startsWith('#'));
  } else {
    // 2013 layout: `n,m`, n vertex lines, then arcs numbered from 0.
    const [nToken, mToken, ...rest] = first.content.split(',').map((token) => token.trim());
    if (rest.length > 0) throw new KidneyFormatError('expected "vertices,arcs"', first.line);
    const n = integer(nToken, first.line, 'a number of vertices');
    declaredArcs = integer(mToken, first.line, 'a number of arcs');
    for (let k = 1; k <= n; k++) {
      const entry = lines[k];
      if (!entry) throw new KidneyFormatError(`expected ${n} vertex lines`, first.line);
      const comma = entry.content.indexOf(',');
      if (comma < 0 || integer(entry.content.slice(0, comma), entry.line, 'a vertex number') !== k) {
        throw new KidneyFormatError(`expected vertex ${k}`, entry.line);
      }
      const name = entry.content.slice(comma + 1).trim();
      vertices.push({ name, altruist: /^al(truist|turist)/i.test(name) });
    }
    base = 0;
    body = lines.slice(n + 1);
  }
  if (dat !== undefined) readDat(dat, vertices);
  const arcs = new ArcSet(vertices.length, base);
  for (const entry of body) {
    const tokens = entry.content.split(',').map((token) => token.trim());
    if (tokens.length !== 3) throw new KidneyFormatError('expected "from,to,weight"', entry.line);
    const from = integer(tokens[0], entry.line, 'a vertex number') - base;
    const to = integer(tokens[1], entry.line, 'a vertex number') - base;
    const value = weight(tokens[2], entry.line);
    for (const vertex of [from, to]) {
      if (vertex < 0 || vertex >= vertices.length)
        throw new KidneyFormatError(`vertex ${vertex + base} is out of range`, entry.line);
    }
    // Into an altruist: "the chain ends here", implied for every pair when chains are modelled.
    if (vertices[to]?.altruist || value <= 0) continue;
    arcs.add(from, to, entry.line);
  }
  if (body.length !== declaredArcs) {
    throw new KidneyFormatError(`${declaredArcs} arcs announced, ${body.length} found`, first.line);
  }
  return { vertices, arcs: arcs.arcs };
}

/** The `.dat` companion: a header naming an `Altruist` column, then one line per vertex. */
function readDat(dat: string, vertices: KidneyVertex[]): void {
  const lines = numberedLines(dat);
  const header = lines[0];
  const column =
    header?.content.split(',').findIndex((name) => name.trim().toLowerCase() === 'altruist') ?? -1;
  if (!header || column < 0)
    throw new KidneyFormatError('the .dat file has no Altruist column', header?.line ?? 1);
  if (lines.length - 1 !== vertices.length) {
    throw new KidneyFormatError(
      `the .dat file describes ${lines.length - 1} vertices, the .wmd file ${vertices.length}`,
      header.line,
    );
  }
  lines.slice(1).forEach((entry, index) => {
    const flag = entry.content.split(',')[column]?.trim();
    if (flag !== '0' && flag !== '1') throw new KidneyFormatError('expected Altruist 0 or 1', entry.line);
    const vertex = vertices[index] as KidneyVertex;
    vertex.altruist = flag === '1';
  });
}

/** Read a kidney_solver pool: its `.input` text (pairs), and its `.ndds` text (altruists) if any. */
export function parseKidneySolverInput(input: string, ndds?: string): KidneyPool {
  const pairs = readArcList(input, 'pair');
  const altruists = ndds === undefined ? { count: 0, arcs: [] } : readArcList(ndds, 'altruist');
  const vertices: KidneyVertex[] = [
    ...Array.from({ length: pairs.count }, (_, i) => ({ name: `pair ${i}`, altruist: false })),
    ...Array.from({ length: altruists.count }, (_, k) => ({ name: `altruist ${k}`, altruist: true })),
  ];
  const arcs = new ArcSet(vertices.length);
  for (const arc of pairs.arcs) {
    if (arc.from >= pairs.count || arc.to >= pairs.count)
      throw new KidneyFormatError(`pair ${Math.max(arc.from, arc.to)} is out of range`, arc.line);
    arcs.add(arc.from, arc.to, arc.line);
  }
  for (const arc of altruists.arcs) {
    if (arc.from < 0 || arc.from >= altruists.count)
      throw new KidneyFormatError(`altruist ${arc.from} is out of range`, arc.line);
    if (arc.to < 0 || arc.to >= pairs.count)
      throw new KidneyFormatError(`pair ${arc.to} is out of range`, arc.line);
    arcs.add(pairs.count + arc.from, arc.to, arc.line);
  }
  return { vertices, arcs: arcs.arcs };
}

/** `count arcs`, the arcs `from to weight`, then `-1 -1 -1`. */
function readArcList(text: string, what: string) {
  const lines = numberedLines(text);
  const first = lines[0];
  if (!first) throw new KidneyFormatError('the file is empty', 1);
  const [countToken, arcsToken, ...rest] = first.content.split(/\s+/);
  if (rest.length > 0) throw new KidneyFormatError(`expected "${what}s arcs"`, first.line);
  const count = integer(countToken, first.line, `a number of ${what}s`);
  const declared = integer(arcsToken, first.line, 'a number of arcs');
  const arcs: Array<{ from: number; to: number; line: number }> = [];
  let end: (typeof lines)[number] | undefined;
  for (const entry of lines.slice(1)) {
    const tokens = entry.content.split(/\s+/);
    if (tokens[0] === '-1') {
      end = entry;
      break;
    }
    if (tokens.length !== 3) throw new KidneyFormatError('expected "from to weight"', entry.line);
    weight(tokens[2], entry.line);
    arcs.push({
      from: integer(tokens[0], entry.line, `a ${what} number`),
      to: integer(tokens[1], entry.line, 'a pair number'),
      line: entry.line,
    });
  }
  if (!end) throw new KidneyFormatError('no closing "-1 -1 -1" line', lines.at(-1)?.line ?? first.line);
  if (arcs.length !== declared) {
    throw new KidneyFormatError(`${declared} arcs announced, ${arcs.length} found`, end.line);
  }
  return { count, arcs };
}

export interface KidneyGraphOptions {
  /**
   * Model altruists' chains (default: leave altruists out, cycles only). Each altruist becomes a
   * dummy item that every pair can "give back" to, so a chain altruist -> p1 -> ... -> pk is the loop
   * p1, altruist, pk, ..., p2: the engine's cap then bounds chains by their number of pairs, as it
   * bounds cycles, and a chain of k pairs counts k transplants.
   */
  chains?: boolean;
}

export interface KidneyGraph {
  graph: TradeGraph;
  /** The pool vertex of each item. */
  vertexOf: number[];
}

/**
 * The trade graph of a pool (ADR 028's direction): each pair is an item owned by the pair; the donor
 * of i able to give to the patient of j means j receives i's kidney, the want {from: j, to: i}.
 * Items traded are then transplants.
 */
export function kidneyTradeGraph(pool: KidneyPool, options: KidneyGraphOptions = {}): KidneyGraph {
  const itemOf = new Map<number, number>();
  const vertexOf: number[] = [];
  const items: TradeItem[] = [];
  pool.vertices.forEach((vertex, index) => {
    if (vertex.altruist && !options.chains) return;
    itemOf.set(index, items.length);
    vertexOf.push(index);
    items.push({ name: vertex.name, owner: vertex.name, dummy: vertex.altruist });
  });
  const wants: TradeWant[] = [];
  for (const arc of pool.arcs) {
    const giver = itemOf.get(arc.from);
    const receiver = itemOf.get(arc.to);
    if (giver === undefined || receiver === undefined) continue;
    wants.push({ from: receiver, to: giver, cost: 1 });
  }
  if (options.chains) {
    // The last pair of a chain gives to no one (or to the deceased-donor waiting list): free.
    items.forEach((altruist, a) => {
      if (!altruist.dummy) return;
      items.forEach((pair, p) => {
        if (!pair.dummy) wants.push({ from: a, to: p, cost: 0 });
      });
    });
  }
  return { graph: { items, wants }, vertexOf };
}
