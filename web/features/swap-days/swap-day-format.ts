import type { SwapDaySummary } from '../../../common/schemas/swap-days';

const whenFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A swap day's time as its screens show it ("Sat, May 2, 2026, 10:00 AM"), in the browser's time zone. */
export function formatWhen(iso: string): string {
  return whenFormat.format(new Date(iso));
}

/** "3 members" / "1 member". */
export function membersText(count: number): string {
  return count === 1 ? '1 member' : `${count} members`;
}

/** "2.3 mi away", or nothing without a distance. */
export function distanceText(summary: Pick<SwapDaySummary, 'distanceMiles'>): string | null {
  return summary.distanceMiles === null ? null : `${summary.distanceMiles.toFixed(1)} mi away`;
}

/**
 * The value a datetime-local input takes for a moment: local date and time to the minute
 * ("2030-05-01T10:00").
 */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
