import { clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { cn, prepareClassMerge } from './utils';

describe('cn', () => {
  const cases: unknown[][] = [
    ['px-2 py-1', 'p-3'],
    ['text-xs text-slate-600', 'text-[10px]'],
    ['inline-flex h-10 px-4', { hidden: true, 'sm:inline-flex': true }],
    ['rounded-xl', undefined, false, 'rounded-none'],
    ['w-full max-w-lg', ['max-w-2xl']],
  ];

  it("merges as tailwind-merge's own twMerge does, later classes winning, before and after the warm-up's step", () => {
    const first = cases.map((inputs) => cn(...(inputs as Parameters<typeof cn>)));
    prepareClassMerge();
    const after = cases.map((inputs) => cn(...(inputs as Parameters<typeof cn>)));
    expect(first).toEqual(after);
    expect(first).toEqual(cases.map((inputs) => twMerge(clsx(inputs as Parameters<typeof clsx>))));
    expect(first[0]).toBe('p-3');
    expect(first[2]).toBe('h-10 px-4 hidden sm:inline-flex');
  });
});
