import { describe, expect, it } from 'vitest';
import { selectorClasses } from './css-classes';

describe("a selector's classes", () => {
  it('reads the classes a selector needs, escapes undone, none from inside parentheses or attribute values', () => {
    expect(selectorClasses('.w-1\\/2')).toEqual(['w-1/2']);
    expect(selectorClasses('.hover\\:bg-red-500:hover')).toEqual(['hover:bg-red-500']);
    expect(selectorClasses('.\\[\\&\\>svg\\]\\:size-4>svg')).toEqual(['[&>svg]:size-4']);
    expect(selectorClasses('.\\32 xl\\:p-4')).toEqual(['2xl:p-4']);
    expect(selectorClasses('.group-hover\\:underline:is(:where(.group):hover *)')).toEqual([
      'group-hover:underline',
    ]);
    expect(selectorClasses('.card:not(.hidden) .title')).toEqual(['card', 'title']);
    expect(selectorClasses('.a[data-x="b.c"]')).toEqual(['a']);
    expect(selectorClasses(':root')).toEqual([]);
  });

  it('reads those inside parentheses too when asked: every class the selector names', () => {
    expect(selectorClasses(':where(.space-y-2>:not(:last-child))', { nested: true })).toEqual(['space-y-2']);
    expect(selectorClasses('.group-hover\\:underline:is(:where(.group):hover *)', { nested: true })).toEqual([
      'group-hover:underline',
      'group',
    ]);
    expect(selectorClasses('.card:not(.hidden) .title', { nested: true })).toEqual([
      'card',
      'hidden',
      'title',
    ]);
    expect(selectorClasses('.a[data-x="b.c"]', { nested: true })).toEqual(['a']);
  });
});
