const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 60 * 60 * 1000],
  ['month', 30 * 24 * 60 * 60 * 1000],
  ['week', 7 * 24 * 60 * 60 * 1000],
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
];

const formatter = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** How long ago `date` was, in words ('3 days ago', 'yesterday', 'just now'). */
export function formatRelativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const elapsed = then.getTime() - now.getTime();
  if (Number.isNaN(elapsed)) return '';
  for (const [unit, size] of UNITS) {
    if (Math.abs(elapsed) >= size) return formatter.format(Math.trunc(elapsed / size), unit);
  }
  return 'just now';
}
