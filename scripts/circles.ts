/**
 * `npm run circles -- --tradelist FILE [--max-cycle K] [--metric items|users|items-users] [--quiet]`: solve a
 * BoardGameGeek math trade from its want-list file (TradeMaximizer's input format) with Barterhood's
 * circle engine (ADR 028) and print the items traded, the members trading, the loops and the time.
 * Without --max-cycle: loops of any length, the most items (TradeMaximizer's count), then the
 * cheapest preferences. With it: the exact optimum with no loop longer than K real items.
 * --metric users puts the number of members who trade first; items-users keeps the most items, then
 * lets the most members trade (a swap day's order).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadHighs, solveTrades, TooManyLoopsError } from '#server/features/circles/engine/solver.ts';
import { parseTradelist, TradelistError } from '#server/features/circles/engine/tradelist.ts';

const USAGE =
  'usage: npm run circles -- --tradelist FILE [--max-cycle K] [--metric items|users|items-users] [--quiet]';

async function main(): Promise<number> {
  let values: { tradelist?: string; 'max-cycle'?: string; metric?: string; quiet?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        tradelist: { type: 'string' },
        'max-cycle': { type: 'string' },
        metric: { type: 'string' },
        quiet: { type: 'boolean' },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.tradelist) {
    console.error(USAGE);
    return 2;
  }
  const maxCycle = values['max-cycle'] === undefined ? undefined : Number(values['max-cycle']);
  if (maxCycle !== undefined && (!Number.isInteger(maxCycle) || maxCycle < 2)) {
    console.error('--max-cycle must be a whole number of at least 2');
    return 2;
  }
  const metric = values.metric ?? 'items';
  if (metric !== 'items' && metric !== 'users' && metric !== 'items-users') {
    console.error('--metric must be items, users or items-users');
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(values.tradelist, 'utf8');
  } catch (error) {
    console.error(`cannot read ${values.tradelist}: ${(error as Error).message}`);
    return 2;
  }
  // HiGHS (WebAssembly) only where an integer program solves: capped loops or the member metrics.
  if (maxCycle !== undefined || metric !== 'items') await loadHighs();
  const started = performance.now();
  try {
    const parsed = parseTradelist(text);
    const parsedAt = performance.now();
    const solution = await solveTrades(parsed.graph, { maxCycle, metric });
    const solvedAt = performance.now();
    const { items } = parsed.graph;
    const real = items.filter((item) => !item.dummy).length;
    const label = (index: number) => {
      const item = items[index];
      return item ? `(${item.owner}) ${item.name}` : String(index);
    };
    if (!values.quiet) {
      console.log(`TRADE LOOPS (${solution.itemsTraded} items traded):`);
      for (const loop of solution.loops) {
        const realItems = loop.filter((index) => !items[index]?.dummy);
        console.log('');
        for (let i = 0; i < realItems.length; i++) {
          const item = realItems[i] as number;
          const next = realItems[(i + 1) % realItems.length] as number;
          console.log(`${label(item)} receives ${label(next)}`);
        }
      }
      console.log('');
    }
    const sizes = solution.loops
      .map((loop) => loop.filter((index) => !items[index]?.dummy).length)
      .sort((a, b) => b - a);
    console.log(`Num trades  = ${solution.itemsTraded} of ${real} items`);
    console.log(`Members     = ${solution.membersTrading} trading`);
    console.log(`Num loops   = ${solution.loops.length}${sizes.length ? ` (sizes ${sizes.join(' ')})` : ''}`);
    console.log(`Total cost  = ${solution.cost}`);
    console.log(
      `Options     = ${parsed.options.join(' ') || '(none)'}; metric ${metric}${maxCycle ? `; max cycle ${maxCycle}` : ''}`,
    );
    console.log(
      `Time        = ${Math.round(solvedAt - started)} ms (read ${Math.round(parsedAt - started)} ms, solve ${Math.round(solvedAt - parsedAt)} ms)`,
    );
    return 0;
  } catch (error) {
    if (error instanceof TradelistError || error instanceof TooManyLoopsError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
