import { plural, t } from '@lingui/core/macro';
import type { SwapDaySummary } from '#common/schemas/swap-days.ts';
import { formatDate, formatDistance } from '../../i18n/format';

const WHEN_OPTIONS: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

/** A swap day's time as its screens show it ("Sat, May 2, 2026, 10:00 AM"), in the browser's time zone. */
export function formatWhen(iso: string): string {
  return formatDate(iso, WHEN_OPTIONS);
}

/** "3 members" / "1 member". */
export function membersText(count: number): string {
  return plural(count, { one: '# member', other: '# members' });
}

/** "2.3 mi away" ("a 3,7 km"), or nothing without a distance. */
export function distanceText(summary: Pick<SwapDaySummary, 'distanceMiles'>): string | null {
  const distance = formatDistance(summary.distanceMiles);
  return distance === null ? null : t`${distance} away`;
}

/**
 * The value a datetime-local input takes for a moment: local date and time to the minute
 * ("2030-05-01T10:00").
 */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
