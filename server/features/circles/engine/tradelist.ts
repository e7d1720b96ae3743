/**
 * TradeMaximizer's want-list format (BoardGameGeek math trades), read into a TradeGraph (ADR 028):
 *
 *   #! ALLOW-DUMMIES REQUIRE-COLONS REQUIRE-USERNAMES LINEAR-PRIORITIES   options
 *   # a comment
 *   !BEGIN-OFFICIAL-NAMES
 *   0001-CATAN ==> "Catan" (from alice)                                   official items
 *   !END-OFFICIAL-NAMES
 *   (alice) 0001-CATAN : 0002-TTR 0003-AZUL ; 0004-WING %alice-dummy       a want list
 *
 * A want list offers its first item for any of the wanted ones, in order of preference (`;` is a
 * bigger step down). Items whose names start with `%` are dummies, the user's own: they chain
 * "I give A only if I get B" and never count as traded. Wanted items nobody offers are skipped
 * (TradeMaximizer warns about them and goes on); malformed lines are errors with their line number.
 */
import type { TradeGraph, TradeItem, TradeWant } from './graph';

/** How a want's rank becomes its cost (TradeMaximizer's *-PRIORITIES options). */
type Priorities = 'linear' | 'triangle' | 'square' | 'scaled' | 'explicit';

export class TradelistError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export interface ParsedTradelist {
  graph: TradeGraph;
  options: string[];
  /** Wanted names that no want list offers (skipped). */
  unknownWants: number;
}

/** Small step between wants (TradeMaximizer's SMALL-STEP, default 1) and `;` (BIG-STEP, default 9). */
const DEFAULT_SMALL_STEP = 1;
const DEFAULT_BIG_STEP = 9;

/** Cost of a want at `rank` (1 = first choice) among `count` wants. */
function costOf(priorities: Priorities, rank: number, count: number): number {
  switch (priorities) {
    case 'triangle':
      return (rank * (rank + 1)) / 2;
    case 'square':
      return rank * rank;
    case 'scaled':
      // 1 for the first choice up to about 2,520 for the last, whatever the list's length.
      return 1 + Math.floor(((rank - 1) * 2520) / Math.max(1, count));
    default:
      return rank;
  }
}

/** Parse a want-list file's text. */
export function parseTradelist(text: string): ParsedTradelist {
  const options: string[] = [];
  const official = new Set<string>();
  let inOfficial = false;
  let sawOfficial = false;
  const lines: Array<{
    line: number;
    user: string | null;
    offered: string;
    wants: string[][];
    colon: boolean;
  }> = [];

  const rows = text.split(/\r?\n/);
  for (let i = 0; i < rows.length; i++) {
    const lineNumber = i + 1;
    const raw = (rows[i] ?? '').trim();
    if (raw === '') continue;
    if (raw.startsWith('#!')) {
      options.push(...raw.slice(2).trim().split(/\s+/).filter(Boolean));
      continue;
    }
    if (raw.startsWith('#')) continue;
    const upper = raw.toUpperCase();
    if (upper === '!BEGIN-OFFICIAL-NAMES') {
      if (sawOfficial) throw new TradelistError('official names begin more than once', lineNumber);
      if (lines.length > 0)
        throw new TradelistError('official names must come before the want lists', lineNumber);
      inOfficial = true;
      sawOfficial = true;
      continue;
    }
    if (upper === '!END-OFFICIAL-NAMES') {
      if (!inOfficial) throw new TradelistError('!END-OFFICIAL-NAMES without a beginning', lineNumber);
      inOfficial = false;
      continue;
    }
    if (raw.startsWith('!')) throw new TradelistError(`unknown directive ${raw.split(/\s/)[0]}`, lineNumber);
    if (inOfficial) {
      const name = raw.split(/\s+/)[0] ?? '';
      official.add(name);
      continue;
    }

    let rest = raw;
    let user: string | null = null;
    if (rest.startsWith('(')) {
      const close = rest.indexOf(')');
      if (close < 0) throw new TradelistError('missing ) after the user name', lineNumber);
      user = rest.slice(1, close).trim();
      if (!user) throw new TradelistError('empty user name', lineNumber);
      rest = rest.slice(close + 1).trim();
    }
    // "ITEM : wants" or "ITEM: wants"; without a colon (allowed unless REQUIRE-COLONS) the first word.
    const colon = rest.indexOf(':');
    const firstSpace = rest.search(/\s/);
    const offered =
      colon >= 0 ? rest.slice(0, colon).trim() : firstSpace < 0 ? rest : rest.slice(0, firstSpace);
    const wantText = colon >= 0 ? rest.slice(colon + 1) : firstSpace < 0 ? '' : rest.slice(firstSpace);
    if (!offered || /\s/.test(offered))
      throw new TradelistError('expected one item before the colon', lineNumber);
    // Groups separated by ';' (a bigger step down in preference).
    const groups = wantText.split(';').map((group) => group.trim().split(/\s+/).filter(Boolean));
    lines.push({ line: lineNumber, user, offered, wants: groups, colon: colon >= 0 });
  }
  if (inOfficial) throw new TradelistError('official names never end', rows.length);

  const has = (name: string) => options.some((option) => option.toUpperCase() === name);
  const optionValue = (name: string) => {
    const found = options.find((option) => option.toUpperCase().startsWith(`${name}=`));
    return found ? Number(found.slice(name.length + 1)) : undefined;
  };
  const priorities: Priorities = has('EXPLICIT-PRIORITIES')
    ? 'explicit'
    : has('SCALED-PRIORITIES')
      ? 'scaled'
      : has('SQUARE-PRIORITIES')
        ? 'square'
        : has('TRIANGLE-PRIORITIES')
          ? 'triangle'
          : 'linear';
  const smallStep = optionValue('SMALL-STEP') ?? DEFAULT_SMALL_STEP;
  const bigStep = optionValue('BIG-STEP') ?? DEFAULT_BIG_STEP;
  const caseSensitive = has('CASE-SENSITIVE');
  for (const entry of lines) {
    if (has('REQUIRE-COLONS') && !entry.colon)
      throw new TradelistError('a colon must follow the item', entry.line);
    if (has('REQUIRE-USERNAMES') && !entry.user)
      throw new TradelistError('a (user name) must start the line', entry.line);
  }
  const key = (name: string) => (caseSensitive ? name : name.toUpperCase());
  /** A dummy belongs to its user: two users' "%cash" are two items. */
  const qualified = (name: string, user: string | null) =>
    name.startsWith('%') ? `${key(name)} for user ${user ?? ''}` : key(name);

  const items: TradeItem[] = [];
  const index = new Map<string, number>();
  for (const entry of lines) {
    const name = qualified(entry.offered, entry.user);
    if (index.has(name)) throw new TradelistError(`${entry.offered} has two want lists`, entry.line);
    if (official.size > 0 && !entry.offered.startsWith('%') && !official.has(entry.offered)) {
      // TradeMaximizer refuses unofficial items when official names are given; we skip them alike.
      continue;
    }
    index.set(name, items.length);
    items.push({
      name: entry.offered,
      owner: entry.user ?? entry.offered,
      dummy: entry.offered.startsWith('%'),
    });
  }

  const wants: TradeWant[] = [];
  let unknownWants = 0;
  for (const entry of lines) {
    const from = index.get(qualified(entry.offered, entry.user));
    if (from === undefined) continue;
    const count = entry.wants.reduce((sum, group) => sum + group.length, 0);
    let rank = 0;
    const seen = new Set<number>();
    entry.wants.forEach((group, g) => {
      if (g > 0) rank += bigStep - smallStep;
      for (const token of group) {
        rank += smallStep;
        let name = token;
        let explicit: number | undefined;
        const eq = token.lastIndexOf('=');
        if (priorities === 'explicit' && eq > 0) {
          explicit = Number(token.slice(eq + 1));
          name = token.slice(0, eq);
        }
        const to = index.get(qualified(name, entry.user));
        if (to === undefined) {
          unknownWants++;
          continue;
        }
        if (to === from || seen.has(to)) continue;
        seen.add(to);
        const cost =
          explicit !== undefined && Number.isFinite(explicit) ? explicit : costOf(priorities, rank, count);
        wants.push({ from, to, cost });
      }
    });
  }
  return { graph: { items, wants }, options, unknownWants };
}
