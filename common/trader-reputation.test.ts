import { describe, expect, it } from 'vitest';
import { formatTraderRating, isTrustedTrader } from './trader-reputation';

describe('isTrustedTrader (docs/product.md: 3 trading partners, ADR 074, and an average of at least 4.5)', () => {
  it.each([
    { tradingPartners: 0, rating: null, trusted: false },
    { tradingPartners: 2, rating: 5, trusted: false },
    { tradingPartners: 3, rating: 4.5, trusted: true },
    { tradingPartners: 3, rating: 4.4, trusted: false },
    { tradingPartners: 12, rating: 5, trusted: true },
    { tradingPartners: 50, rating: 4.49, trusted: false },
    { tradingPartners: 5, rating: null, trusted: false },
  ])('$tradingPartners partners rated $rating: $trusted', ({ tradingPartners, rating, trusted }) => {
    expect(isTrustedTrader({ tradingPartners, rating })).toBe(trusted);
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
