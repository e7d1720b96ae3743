import { describe, expect, it } from 'vitest';
import { formatTraderRating, isTrustedTrader } from './trader-reputation';

describe('isTrustedTrader (docs/product.md: at least 3 completed trades and an average of at least 4.5)', () => {
  it.each([
    { totalTrades: 0, rating: null, trusted: false },
    { totalTrades: 2, rating: 5, trusted: false },
    { totalTrades: 3, rating: 4.5, trusted: true },
    { totalTrades: 3, rating: 4.4, trusted: false },
    { totalTrades: 12, rating: 5, trusted: true },
    { totalTrades: 50, rating: 4.49, trusted: false },
    { totalTrades: 5, rating: null, trusted: false },
  ])('$totalTrades trades rated $rating: $trusted', ({ totalTrades, rating, trusted }) => {
    expect(isTrustedTrader({ totalTrades, rating })).toBe(trusted);
  });
});

describe('formatTraderRating', () => {
  it('shows the average to one decimal and the trade count, as the spec does', () => {
    expect(formatTraderRating({ totalTrades: 12, rating: 5 })).toBe('5.0 (12 trades)');
    expect(formatTraderRating({ totalTrades: 23, rating: 4.9 })).toBe('4.9 (23 trades)');
    expect(formatTraderRating({ totalTrades: 1, rating: 4 })).toBe('4.0 (1 trade)');
  });

  it('says New trader without completed trades, and Not rated yet before the first rating', () => {
    expect(formatTraderRating({ totalTrades: 0, rating: null })).toBe('New trader');
    expect(formatTraderRating({ totalTrades: 2, rating: null })).toBe('Not rated yet (2 trades)');
  });
});
