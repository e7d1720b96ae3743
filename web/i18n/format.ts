import { plural, t } from '@lingui/core/macro';
import { i18n } from './i18n';
import { usesMiles } from './locales';

/**
 * Numbers, money, distances, dates and relative times in the active language (ADR 036). Call at render
 * time: the app re-renders from the top when the language changes.
 */

const KM_PER_MILE = 1.609344;

function oneDecimal(value: number): string {
  return i18n.number(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** "1.2 mi" (English) or "1,9 km" (Spanish) from the server's distance in miles; null without one. */
export function formatDistance(miles: number | null): string | null {
  if (miles === null) return null;
  return usesMiles(i18n.locale) ? `${oneDecimal(miles)} mi` : `${oneDecimal(miles * KM_PER_MILE)} km`;
}

/** A travel distance or search radius: "5 miles" or "8 km" (whole kilometres). */
export function formatRadius(miles: number): string {
  if (usesMiles(i18n.locale)) {
    return plural(miles, { one: '# mile', other: '# miles' });
  }
  const km = Math.round(miles * KM_PER_MILE);
  return `${i18n.number(km)} km`;
}

/** "about 1.5 miles" / "unos 2,5 km": an approximate area's radius, to the nearest half unit. */
export function formatApproximateRadius(meters: number): string {
  const unit = usesMiles(i18n.locale) ? 1609.344 : 1000;
  const amount = Math.max(0.5, Math.round((meters / unit) * 2) / 2);
  const value = i18n.number(amount);
  if (usesMiles(i18n.locale)) return amount === 1 ? t`about 1 mile` : t`about ${value} miles`;
  return t`about ${value} km`;
}

/** An amount in US dollars ("$12.50", "12,50 US$"); null when unknown. */
export function formatMoney(value: number | null, options: { cents?: boolean } = {}): string | null {
  if (value === null) return null;
  return i18n.number(value, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 2,
    ...(options.cents === false ? { minimumFractionDigits: 0 } : {}),
  });
}

/** A date (and time) in the active language, with Intl's options. */
export function formatDate(value: Date | string, options: Intl.DateTimeFormatOptions): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return i18n.date(date, options);
}

/** A date and time as the barter and circle screens show it ("Mar 3, 2026, 4:05 PM"), in the active language. */
export function formatDateTime(iso: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 60 * 60 * 1000],
  ['month', 30 * 24 * 60 * 60 * 1000],
  ['week', 7 * 24 * 60 * 60 * 1000],
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
];

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();

/** How long ago `date` was, in words ('3 days ago', 'yesterday', 'just now'; 'hace 3 días'). */
export function formatRelativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const elapsed = then.getTime() - now.getTime();
  if (Number.isNaN(elapsed)) return '';
  const locale = i18n.locale || 'en';
  let formatter = relativeFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormatters.set(locale, formatter);
  }
  for (const [unit, size] of UNITS) {
    if (Math.abs(elapsed) >= size) return formatter.format(Math.trunc(elapsed / size), unit);
  }
  return t`just now`;
}
