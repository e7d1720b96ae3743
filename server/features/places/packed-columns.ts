/**
 * Columns of many short strings held as a few large values instead of one JavaScript string each
 * (issue 32): 135,000 town names as separate strings and arrays of them took about 20 MB of the main
 * thread's heap for the life of the process, packed a fraction of it. Plain objects of strings and
 * typed arrays, so they cross threads by structured clone (and their buffers can be moved).
 */

/**
 * Strings laid end to end in one string: string `i` is `text.slice(starts[i], starts[i + 1])`.
 * A string with a character beyond Latin-1 would make the whole text two bytes a character, so
 * those few (about 11,000 of 135,000 town names, 28 of their folded keys) are kept apart in `wide`,
 * with an empty range in `text`.
 */
export interface PackedStrings {
  text: string;
  /** One more than the strings: where each starts, then where the last one ends. */
  starts: Uint32Array;
  /** The strings with a character beyond Latin-1, by number. */
  wide: Map<number, string>;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the Latin-1 range, whose start is a control character
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

export function packStrings(strings: readonly string[]): PackedStrings {
  const starts = new Uint32Array(strings.length + 1);
  const wide = new Map<number, string>();
  const latin1: string[] = [];
  let end = 0;
  for (let i = 0; i < strings.length; i++) {
    const string = strings[i] as string;
    starts[i] = end;
    if (BEYOND_LATIN1.test(string)) {
      wide.set(i, string);
      continue;
    }
    latin1.push(string);
    end += string.length;
    if (end > 0xffff_ffff) throw new Error('packStrings: more text than the offsets can hold');
  }
  starts[strings.length] = end;
  // Written out and read back as Latin-1: a one-byte string, which joining may not give (a part
  // made by normalize() or replace() can be two bytes a character with only Latin-1 in it).
  const text = Buffer.from(latin1.join(''), 'latin1').toString('latin1');
  return { text, starts, wide };
}

export function packedCount(packed: PackedStrings): number {
  return packed.starts.length - 1;
}

export function stringAt(packed: PackedStrings, i: number): string {
  const start = packed.starts[i] as number;
  const end = packed.starts[i + 1] as number;
  if (start === end) return packed.wide.get(i) ?? '';
  return packed.text.slice(start, end);
}

/** Whether string `i` starts with `prefix`, without making string `i`. */
export function startsWithAt(packed: PackedStrings, i: number, prefix: string): boolean {
  const start = packed.starts[i] as number;
  const length = (packed.starts[i + 1] as number) - start;
  if (length === 0) return (packed.wide.get(i) ?? '').startsWith(prefix);
  return length >= prefix.length && packed.text.startsWith(prefix, start);
}

/**
 * A column of few distinct values (country and region codes): each value once, and per row the
 * number of its value.
 */
export interface CodeColumn {
  values: string[];
  rows: Uint16Array;
}

export function codeColumn(strings: readonly string[]): CodeColumn {
  const numbers = new Map<string, number>();
  const values: string[] = [];
  const rows = new Uint16Array(strings.length);
  for (let i = 0; i < strings.length; i++) {
    const value = strings[i] as string;
    let n = numbers.get(value);
    if (n === undefined) {
      n = values.length;
      if (n > 0xffff) throw new Error('codeColumn: more distinct values than a Uint16Array numbers');
      numbers.set(value, n);
      values.push(value);
    }
    rows[i] = n;
  }
  return { values, rows };
}

export function codeAt(column: CodeColumn, i: number): string {
  return column.values[column.rows[i] as number] as string;
}

/**
 * Row numbers in groups by a short key (a search's first letters), each group in the order added:
 * one array of rows, the groups end to end, instead of an array per key.
 */
export interface PackedGroups {
  /** The key of each group and its number. */
  groups: Map<string, number>;
  /** One more than the groups: where each group's rows start in `rows`, then where the last ends. */
  starts: Uint32Array;
  rows: Uint32Array;
}

/** Group rows 0..keys.length-1 by their key (rows stay in increasing order within a group). */
export function packGroups(keys: readonly string[]): PackedGroups {
  const groups = new Map<string, number>();
  const groupOf = new Uint32Array(keys.length);
  const sizes: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    let g = groups.get(key);
    if (g === undefined) {
      g = sizes.length;
      groups.set(key, g);
      sizes.push(0);
    }
    groupOf[i] = g;
    sizes[g] = (sizes[g] as number) + 1;
  }
  const starts = new Uint32Array(sizes.length + 1);
  for (let g = 0; g < sizes.length; g++) starts[g + 1] = (starts[g] as number) + (sizes[g] as number);
  const next = starts.slice(0, sizes.length);
  const rows = new Uint32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const g = groupOf[i] as number;
    rows[next[g] as number] = i;
    next[g] = (next[g] as number) + 1;
  }
  return { groups, starts, rows };
}

/** The rows of a key's group in the order added (empty when none), a view of the packed rows. */
export function groupRows(packed: PackedGroups, key: string): Uint32Array {
  const g = packed.groups.get(key);
  if (g === undefined) return packed.rows.subarray(0, 0);
  return packed.rows.subarray(packed.starts[g], packed.starts[g + 1]);
}

/** The bytes the packed values hold (two per character when the text is not all Latin-1). */
export function packedBytes(...values: Array<PackedStrings | CodeColumn | PackedGroups>): number {
  let bytes = 0;
  for (const value of values) {
    if ('text' in value) {
      bytes += value.text.length + value.starts.byteLength;
      for (const string of value.wide.values()) bytes += 2 * string.length;
    } else if ('values' in value) {
      bytes += value.rows.byteLength + value.values.reduce((sum, v) => sum + v.length, 0);
    } else {
      bytes += value.starts.byteLength + value.rows.byteLength;
    }
  }
  return bytes;
}
