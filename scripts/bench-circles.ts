/**
 * `npm run bench:circles`: the circle engine's speed (issue 16, ADR 028).
 *
 * 1. Published BoardGameGeek math trades (server/features/circles/engine/fixtures): read and solved
 *    with loops of any length (TradeMaximizer's problem) and with caps 2, 3 and 4; each solve run
 *    `--runs` times after one warm-up, median and worst reported beside TradeMaximizer's published
 *    time and item count.
 * 2. A city of `--members` (10,000) members: each lists 1 to 4 items and wants 1 to 4 of 400
 *    kinds of thing, lives on a 20 x 20 mile city and travels 1 to 5 miles; member A can give to
 *    member B when one of A's items is a kind B wants and each lies within the other's distance.
 *    Exact circles of at most 3 members (each member one node: a circle uses each member once).
 * 3. Kidney-exchange pools with published optima (server/features/circles/engine/fixtures/kidney,
 *    sources in its README): transplants within the published cap, beside the published number.
 *    `--only=kidney` runs just these; `--kidney-slow` adds the two cap-4 pools of 128 pairs (solved
 *    once each, with the solve's CPU time: they took minutes, or did not finish, before ADR 095).
 *
 * 4. The app's circle finder on the embedded database (scripts/bench-circle-finder.ts): the hourly
 *    full run over a city of `--members`, `--updates` incremental updates after one new listing, and
 *    the healing case (ADR 081: declines with a replacement at hand, then random ones).
 *    `--only=app` runs just that.
 *
 *    Beside each trade's loops of any length: CPU seconds (user + system) of the whole command
 *    `npm run circles` on it (the compiled CLI, as npm runs it, without npm's own start), the median
 *    of `--cpu-runs` after one untimed run, and, when FASTTRADEMAXIMIZER names its binary
 *    (docs/performance.md: how to build it), FastTradeMaximizer's on the same file in the same run,
 *    with the ratio; without it that column is skipped, and where it refuses a file, its words.
 *
 * Flags: --runs=5 --cpu-runs=3 --members=10000 --updates=50 --seed=42 --only=kidney|app --kidney-slow
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  kidneyTradeGraph,
  parseKidneySolverInput,
  parsePreflibKidney,
} from '#server/features/circles/engine/kidney.ts';
import {
  enumerateLoops,
  loadHighs,
  type SolveOptions,
  solveTrades,
} from '#server/features/circles/engine/solver.ts';
import { parseTradelist } from '#server/features/circles/engine/tradelist.ts';
import type { TradeGraph } from '#server/features/circles/index.ts';
import { benchCircleFinder } from './bench-circle-finder';
import { numberOption, option } from './bench-server';

const RUNS = numberOption('runs', 5);
const MEMBERS = numberOption('members', 10_000);
const UPDATES = numberOption('updates', 50);
let seed = numberOption('seed', 42);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};

/** Published results (gioannidis/mathtrader, solver_olwlg_test.cc comments): items, time in ms. */
const PUBLISHED: Record<string, { name: string; items: number; tmMs: number }> = {
  'olwlg-286103.txt': { name: 'Norway, June 2021', items: 10, tmMs: 2 },
  'olwlg-286928.txt': { name: 'Greece, July 2021', items: 105, tmMs: 405 },
  'olwlg-286870.txt': { name: 'Canada, summer 2021', items: 166, tmMs: 111 },
  'olwlg-286149.txt': { name: 'UK, June 2021', items: 638, tmMs: 2_036_655 },
};

async function timed(graph: TradeGraph, options: SolveOptions) {
  await solveTrades(graph, options);
  const times: number[] = [];
  let traded = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    traded = (await solveTrades(graph, options)).itemsTraded;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { traded, median: times[Math.floor(times.length / 2)] ?? 0, worst: times[times.length - 1] ?? 0 };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** Runs of each whole command (`npm run circles`, FastTradeMaximizer) for the CPU column. */
const CPU_RUNS = numberOption('cpu-runs', 3);
/** FastTradeMaximizer's binary, when built (docs/performance.md says how): the want list on its stdin. */
const FTM = process.env.FASTTRADEMAXIMIZER;

/** A whole command's CPU seconds (the median of CPU_RUNS runs), or why it did not run. */
type CommandCpu = { seconds: number } | { failed: string };

/**
 * CPU seconds (user + system, children included) of one whole command, from GNU time's `%U %S`: the
 * median of CPU_RUNS runs after one run that is not timed (it builds a stale CLI, and reads the files
 * into the page cache for either program alike). A failed run reports the program's own words.
 */
function commandCpu(command: string[], stdinFile?: string): CommandCpu {
  if (!existsSync('/usr/bin/time')) return { failed: 'no /usr/bin/time' };
  const dir = mkdtempSync(join(tmpdir(), 'bench-circles-'));
  try {
    const seconds: number[] = [];
    for (let i = 0; i <= CPU_RUNS; i++) {
      const output = join(dir, 'time.txt');
      const stdin = stdinFile ? openSync(stdinFile, 'r') : 'ignore';
      const run = spawnSync('/usr/bin/time', ['-o', output, '-f', '%U %S', ...command], {
        stdio: [stdin, 'pipe', 'pipe'],
        maxBuffer: 64 * 1024 * 1024,
      });
      if (run.status !== 0) {
        // Its own words: a line that names the trouble, else its last line on standard error (a
        // program that aborts, as FastTradeMaximizer on an option it does not know, loses its
        // buffered standard output).
        const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.trim());
        const errors = `${run.stderr}`.split('\n').filter((line) => line.trim());
        const said = lines.find((line) => /unknown|error|usage/i.test(line)) ?? errors.at(-1);
        return {
          failed: `failed${said ? `: ${said.trim().replaceAll('|', '/').slice(0, 80)}` : ` (exit ${run.status})`}`,
        };
      }
      const [user, system] =
        readFileSync(output, 'utf8').trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
      if (user === undefined || system === undefined) return { failed: 'no time reported' };
      if (i > 0) seconds.push(user + system);
    }
    seconds.sort((a, b) => a - b);
    return { seconds: seconds[Math.floor(seconds.length / 2)] ?? 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What `npm run circles` runs, without npm's own start: the compiled CLI (ADR 071) through run.mjs. */
const CIRCLES_COMMAND = [process.execPath, new URL('./run.mjs', import.meta.url).pathname, 'circles'];

/** `npm run circles` on a want list, and FastTradeMaximizer beside it when its binary is there. */
function wholeCommand(path: string): string {
  const ours = commandCpu([...CIRCLES_COMMAND, '--tradelist', path, '--quiet']);
  const text = (cpu: CommandCpu, digits: number) =>
    'seconds' in cpu ? `${cpu.seconds.toFixed(digits)} s` : cpu.failed;
  if (!FTM) return `${text(ours, 2)} | (no FASTTRADEMAXIMIZER) | `;
  const theirs = commandCpu([FTM], path);
  if (!('seconds' in theirs) || !('seconds' in ours)) return `${text(ours, 2)} | ${text(theirs, 3)} | `;
  return `${text(ours, 2)} | ${text(theirs, 3)} | ${(ours.seconds / Math.max(theirs.seconds, 0.001)).toFixed(1)}x`;
}

async function mathTrades(): Promise<string[]> {
  const rows: string[] = [];
  for (const [file, published] of Object.entries(PUBLISHED)) {
    const path = new URL(`../server/features/circles/engine/fixtures/${file}`, import.meta.url).pathname;
    const text = readFileSync(path, 'utf8');
    const readStarted = performance.now();
    const { graph } = parseTradelist(text);
    const readMs = performance.now() - readStarted;
    const real = graph.items.filter((item) => !item.dummy).length;
    const free = await timed(graph, {});
    rows.push(
      `| ${published.name} (${real} items, ${graph.wants.length} wants) | any length | ${free.traded} (TradeMaximizer ${published.items}) | ${ms(free.median)} / ${ms(free.worst)} (+ read ${ms(readMs)}) | ${published.tmMs.toLocaleString('en-US')} ms | ${wholeCommand(path)} |`,
    );
    console.log(rows.at(-1));
    if (graph.wants.length > 100_000) continue;
    for (const cap of [2, 3, 4]) {
      try {
        const capped = await timed(graph, { maxCycle: cap });
        rows.push(
          `| ${published.name} | at most ${cap} | ${capped.traded} | ${ms(capped.median)} / ${ms(capped.worst)} | | | | |`,
        );
      } catch (error) {
        rows.push(`| ${published.name} | at most ${cap} | refused: ${(error as Error).message} | | | | | |`);
      }
      console.log(rows.at(-1));
    }
  }
  return rows;
}

/** Published kidney-exchange optima, in transplants (engine/fixtures/kidney/README: sources). */
const KIDNEY: Array<{ file: string; chains?: boolean; cap: number; optimum: number; slow?: boolean }> = [
  { file: 'MD-00001-00000015', chains: true, cap: 3, optimum: 15 },
  { file: 'MD-00001-00000015', chains: true, cap: 4, optimum: 16 },
  { file: 'MD-00001-00000100', cap: 4, optimum: 39 },
  { file: 'MD-00001-00000120', cap: 3, optimum: 83 },
  { file: 'heterogeneous_128_0_1', cap: 3, optimum: 85 },
  { file: 'sparse_128_0_1', cap: 3, optimum: 28 },
  { file: 'sparse_128_0_1', cap: 4, optimum: 36 },
  { file: 'MD-00001-00000120', cap: 4, optimum: 86, slow: true },
  { file: 'heterogeneous_128_0_1', cap: 4, optimum: 90, slow: true },
];

/** A kidney_solver pool (`.input`, `.ndds`) or a PrefLib one (`.wmd`, `.dat`). */
function readKidney(file: string) {
  const path = (extension: string) =>
    new URL(`../server/features/circles/engine/fixtures/kidney/${file}.${extension}`, import.meta.url);
  const text = (extension: string) => readFileSync(path(extension), 'utf8');
  return existsSync(path('input'))
    ? parseKidneySolverInput(text('input'), text('ndds'))
    : parsePreflibKidney(text('wmd'), text('dat'));
}

async function kidneyExchanges(): Promise<string[]> {
  const rows: string[] = [];
  const slow = option('kidney-slow', 'false') === 'true';
  for (const instance of KIDNEY) {
    if (instance.slow && !slow) continue;
    const pool = readKidney(instance.file);
    const { graph } = kidneyTradeGraph(pool, { chains: instance.chains });
    const altruist = (vertex: number) => pool.vertices[vertex]?.altruist;
    const pairs = pool.vertices.filter((vertex) => !vertex.altruist).length;
    const altruists = pool.vertices.length - pairs;
    const fromAltruists = pool.arcs.filter((arc) => altruist(arc.from)).length;
    const size = `${pairs} pairs, ${pool.arcs.length - fromAltruists} arcs${
      altruists > 0
        ? `; ${altruists} altruist${altruists > 1 ? 's' : ''}, ${fromAltruists} arcs${instance.chains ? '' : ', left out'}`
        : ''
    }`;
    const exchanges = `${instance.chains ? 'cycles and chains' : 'cycles'} of at most ${instance.cap}`;
    const loops = enumerateLoops(graph, instance.cap).length.toLocaleString('en-US');
    let result: string;
    try {
      if (instance.slow) {
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        const traded = (await solveTrades(graph, { maxCycle: instance.cap })).itemsTraded;
        const cpu = process.cpuUsage(cpuStarted);
        result = `${traded} | ${ms(performance.now() - started)}, CPU ${ms((cpu.user + cpu.system) / 1000)} (one run)`;
      } else {
        const solved = await timed(graph, { maxCycle: instance.cap });
        result = `${solved.traded} | ${ms(solved.median)} / ${ms(solved.worst)}`;
      }
    } catch (error) {
      result = `failed: ${(error as Error).message} | `;
    }
    rows.push(
      `| ${instance.file} (${size}) | ${exchanges} (${loops} loops) | ${instance.optimum} | ${result} |`,
    );
    console.log(rows.at(-1));
  }
  return rows;
}

function printKidney(rows: string[]) {
  console.log('\n| kidney pool | exchanges | published optimum | transplants | solve median / worst |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
}

/** Members on a city, their items and wants as kinds, travel distances in miles. */
function neighbourhood(): TradeGraph {
  const KINDS = 400;
  const members = Array.from({ length: MEMBERS }, (_, i) => ({
    id: i,
    x: random() * 20,
    y: random() * 20,
    travel: 1 + random() * 4,
    gives: Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * KINDS)),
    wants: new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * KINDS))),
  }));
  // A grid of 1-mile cells, so each member looks only at neighbours within 5 miles.
  const cells = new Map<string, typeof members>();
  for (const member of members) {
    const key = `${Math.floor(member.x)}:${Math.floor(member.y)}`;
    const list = cells.get(key) ?? [];
    list.push(member);
    cells.set(key, list);
  }
  const wants: TradeGraph['wants'] = [];
  for (const giver of members) {
    const cx = Math.floor(giver.x);
    const cy = Math.floor(giver.y);
    const reach = Math.ceil(giver.travel);
    for (let dx = -reach; dx <= reach; dx++) {
      for (let dy = -reach; dy <= reach; dy++) {
        for (const taker of cells.get(`${cx + dx}:${cy + dy}`) ?? []) {
          if (taker.id === giver.id) continue;
          const distance = Math.hypot(giver.x - taker.x, giver.y - taker.y);
          if (distance > giver.travel || distance > taker.travel) continue;
          if (!giver.gives.some((kind) => taker.wants.has(kind))) continue;
          // The taker receives from the giver: in the engine's terms the taker's node "wants" the giver's.
          wants.push({ from: taker.id, to: giver.id, cost: Math.max(1, Math.round(distance)) });
        }
      }
    }
  }
  return {
    items: members.map((member) => ({ name: `m${member.id}`, owner: `m${member.id}`, dummy: false })),
    wants,
  };
}

async function main() {
  await loadHighs();
  console.log(`bench:circles, ${RUNS} runs after a warm-up; Node ${process.version}`);
  if (option('only', 'all') === 'kidney') {
    printKidney(await kidneyExchanges());
    return;
  }
  if (option('only', 'all') === 'app') {
    printApp(await benchCircleFinder(MEMBERS, UPDATES));
    return;
  }
  const rows = await mathTrades();
  const graphStarted = performance.now();
  const city = neighbourhood();
  const graphMs = performance.now() - graphStarted;
  const loopStarted = performance.now();
  let loops = 0;
  try {
    loops = enumerateLoops(city, 3).length;
  } catch (error) {
    console.log(`neighbourhood: ${(error as Error).message}`);
    for (const row of rows) console.log(row);
    return;
  }
  const loopMs = performance.now() - loopStarted;
  const capped = await timed(city, { maxCycle: 3 });
  rows.push(
    `| neighbourhood of ${MEMBERS.toLocaleString('en-US')} members (${city.wants.length.toLocaleString('en-US')} possible hand-overs, ${loops.toLocaleString('en-US')} circles of 2-3) | at most 3 | ${capped.traded} members | ${ms(capped.median)} / ${ms(capped.worst)} (graph ${ms(graphMs)}, enumeration ${ms(loopMs)} of it) | | | | |`,
  );
  console.log(rows.at(-1));
  console.log(
    '\n| trade | loops | items traded | solve median / worst | TradeMaximizer published time | `npm run circles` CPU | FastTradeMaximizer CPU | ratio |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) console.log(row);
  printKidney(await kidneyExchanges());
  printApp(await benchCircleFinder(MEMBERS, UPDATES));
}

/** The app's circle finder on the embedded database (scripts/bench-circle-finder.ts). */
function printApp(lines: string[]) {
  console.log(`\nThe app's circle finder (PGlite, a city of ${MEMBERS.toLocaleString('en-US')} members):`);
  for (const line of lines) console.log(`- ${line}`);
}

await main();
