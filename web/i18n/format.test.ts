import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './format';

const now = new Date('2025-06-15T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatRelativeTime', () => {
  it.each([
    [ago(10_000), 'just now'],
    [ago(5 * MINUTE), '5 minutes ago'],
    [ago(2 * HOUR), '2 hours ago'],
    [ago(DAY), 'yesterday'],
    [ago(3 * DAY), '3 days ago'],
    [ago(8 * DAY), 'last week'],
    [ago(21 * DAY), '3 weeks ago'],
    [ago(65 * DAY), '2 months ago'],
    [ago(400 * DAY), 'last year'],
  ])('%s reads %s', (date, expected) => {
    expect(formatRelativeTime(date, now)).toBe(expected);
  });

  it('reads ISO strings as the API sends them', () => {
    expect(formatRelativeTime('2025-06-12T12:00:00.000Z', now)).toBe('3 days ago');
  });
});
