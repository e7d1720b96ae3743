import { describe, expect, it } from 'vitest';
import { dcgAt, ndcgAt, precisionAt } from './ranking-measures';

describe('ranking measures', () => {
  it('DCG discounts each place by log2 of its rank plus one', () => {
    expect(dcgAt([3, 2, 0], 10)).toBeCloseTo(7 + 3 / Math.log2(3), 10);
    expect(dcgAt([3, 2, 0], 1)).toBe(7);
  });

  it('NDCG is 1 for the ideal order and less for any other', () => {
    expect(ndcgAt([3, 2, 1, 0], [0, 1, 2, 3], 10)).toBe(1);
    expect(ndcgAt([0, 1, 2, 3], [0, 1, 2, 3], 10)).toBeLessThan(1);
    // Leaving out a relevant item costs as much as ranking it past k.
    expect(ndcgAt([3], [3, 3], 10)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 10);
    expect(ndcgAt([], [0, 0], 10)).toBe(1);
  });

  it('precision counts the relevant among the first k places, empty places as misses', () => {
    expect(precisionAt([3, 2, 1, 0, 3], 5, 2)).toBe(0.6);
    expect(precisionAt([3], 5, 2)).toBe(0.2);
  });
});
