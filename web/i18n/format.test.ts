import { afterEach, describe, expect, it } from 'vitest';
import { messages as spanish } from '../locales/es.po';
import {
  formatApproximateRadius,
  formatDate,
  formatDistance,
  formatMoney,
  formatRadius,
  formatRelativeTime,
} from './format';
import { i18n } from './i18n';

i18n.load('es', spanish);

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

describe('in Spanish', () => {
  afterEach(() => i18n.activate('en'));

  it('shows distances in kilometres and numbers the Spanish way', () => {
    i18n.activate('es');
    expect(formatDistance(1.2)).toBe('1,9 km');
    expect(formatDistance(null)).toBeNull();
    expect(formatRadius(5)).toBe('8 km');
    expect(formatRadius(25)).toBe('40 km');
    expect(formatApproximateRadius(2500)).toBe('unos 2,5 km');
  });

  it('says how long ago in Spanish', () => {
    i18n.activate('es');
    expect(formatRelativeTime(ago(3 * DAY), now)).toBe('hace 3 días');
    expect(formatRelativeTime(ago(DAY), now)).toBe('ayer');
    expect(formatRelativeTime(ago(10_000), now)).toBe('hace un momento');
  });

  it('writes dates and dollars in Spanish', () => {
    i18n.activate('es');
    expect(formatDate('2025-06-15T12:00:00Z', { dateStyle: 'long', timeZone: 'UTC' })).toBe(
      '15 de junio de 2025',
    );
    expect(formatMoney(12.5)).toMatch(/^12,50\s?US\$$/);
  });
});

describe('in English', () => {
  it('shows miles', () => {
    expect(formatDistance(1.24)).toBe('1.2 mi');
    expect(formatRadius(5)).toBe('5 miles');
    expect(formatRadius(1)).toBe('1 mile');
    expect(formatApproximateRadius(2500)).toBe('about 1.5 miles');
    expect(formatApproximateRadius(1609)).toBe('about 1 mile');
    expect(formatMoney(12.5)).toBe('$12.50');
    expect(formatDate('2025-06-15T12:00:00Z', { dateStyle: 'long', timeZone: 'UTC' })).toBe('June 15, 2025');
  });
});
