import { describe, expect, it } from 'vitest';
import { feedQuerySchema } from './feed';
import { itemFormSchema, wantUpdateSchema } from './listings';
import { decimalParam, wholeNumberParam } from './numbers';
import { placeReverseQuerySchema } from './places';
import { tradeListQuerySchema } from './trades';

/** The first issue's message, or null when the value is valid. */
function firstMessage(result: { success: boolean; error?: { issues: Array<{ message: string }> } }) {
  return result.success ? null : (result.error?.issues[0]?.message ?? '');
}

describe('wholeNumberParam', () => {
  const limit = wholeNumberParam('limit', 1, 50);

  it.each([
    ['20', 20],
    [' 7 ', 7],
    ['+3', 3],
    ['007', 7],
  ])('reads %j as %d', (text, value) => {
    expect(limit.parse(text)).toBe(value);
  });

  it.each(['0x10', '1e3', '2.0', '0b11', '0o7', '', ' ', 'Infinity', 'NaN', '1_000', '١٢'])(
    'refuses %j as not a whole number',
    (text) => {
      expect(firstMessage(limit.safeParse(text))).toBe('limit must be a whole number');
    },
  );

  it('refuses numbers out of range, and values that are not text', () => {
    expect(firstMessage(limit.safeParse('0'))).toBe('limit must be between 1 and 50');
    expect(firstMessage(limit.safeParse('99999999999999999999999'))).toBe('limit must be between 1 and 50');
    expect(firstMessage(limit.safeParse(['1', '2']))).toBe('limit must be a whole number');
  });
});

describe('decimalParam', () => {
  const radius = decimalParam('radius must be a number');

  it.each([
    ['25', 25],
    ['2.5', 2.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['1e-7', 1e-7],
    ['-3', -3],
  ])('reads %j as %d', (text, value) => {
    expect(radius.parse(text)).toBe(value);
  });

  it.each(['0x10', '0b11', 'Infinity', '', 'abc', '1e400'])('refuses %j', (text) => {
    expect(firstMessage(radius.safeParse(text))).toBe('radius must be a number');
  });
});

describe('numbers in the shared schemas', () => {
  it('feed paging refuses hex and exponents, radius reads decimals only', () => {
    expect(firstMessage(feedQuerySchema.safeParse({ limit: '0x10' }))).toBe('limit must be a whole number');
    expect(firstMessage(feedQuerySchema.safeParse({ offset: '1e3' }))).toBe('offset must be a whole number');
    expect(firstMessage(feedQuerySchema.safeParse({ seed: '0x10' }))).toBe('seed must be a whole number');
    expect(firstMessage(feedQuerySchema.safeParse({ radius: '0x19' }))).toBe(
      'radius must be one of 5, 10, 25, 50',
    );
    expect(feedQuerySchema.parse({ radius: '2.5e1', limit: '16' })).toMatchObject({ radius: 25, limit: 16 });
  });

  it('trade history limit refuses hex', () => {
    expect(firstMessage(tradeListQuerySchema.safeParse({ limit: '0x10' }))).toBe(
      'limit must be a whole number',
    );
    expect(tradeListQuerySchema.parse({})).toEqual({ limit: 50 });
  });

  it('amounts typed as text are decimals: "1e3" is 1000, "0x10" is refused', () => {
    const base = { title: 'Drill', description: 'Works.', category: 'tools' };
    expect(itemFormSchema.parse({ ...base, estimatedValue: '1e3' }).estimatedValue).toBe(1000);
    expect(firstMessage(itemFormSchema.safeParse({ ...base, estimatedValue: '0x10' }))).toBe(
      'Estimated value must be a positive number',
    );
    expect(firstMessage(wantUpdateSchema.safeParse({ maxValue: 'Infinity' }))).toBe(
      'Max value must be a positive number',
    );
  });

  it('coordinates refuse hex', () => {
    expect(firstMessage(placeReverseQuerySchema.safeParse({ lat: '0x10', lon: '0' }))).toBe(
      'Latitude must be between -90 and 90',
    );
  });
});
