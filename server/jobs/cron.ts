import cronParser from 'cron-parser';

/**
 * Periods as crons (ADR 066). Schedules are pg-boss crons, which run at most once a minute, so a
 * period is a whole number of minutes that divides an hour, or of hours that divides a day: a clock
 * keeps it (every 10 minutes is :00, :10, :20 ...), the same in every process.
 */

/** The periods, in seconds, that `cronEvery` accepts besides 0. */
export const CLOCK_PERIODS: readonly number[] = [
  ...[1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30].map((minutes) => minutes * 60),
  ...[1, 2, 3, 4, 6, 8, 12, 24].map((hours) => hours * 3600),
];

/** Why `seconds` is not a period a clock keeps, for the settings' error messages. */
export const CLOCK_PERIODS_TEXT =
  '0 (never), or a whole number of minutes that divides an hour (60, 120, 180, 240, 300, 360, 600, 720, 900, 1200, 1800) or of hours that divides a day (3600, 7200, 10800, 14400, 21600, 28800, 43200, 86400)';

/** Whether `seconds` is 0 or a period `cronEvery` can write. */
export function isClockPeriod(seconds: number): boolean {
  return seconds === 0 || CLOCK_PERIODS.includes(seconds);
}

/**
 * The cron (five fields, UTC) that runs every `seconds`, counted from midnight, or null for 0
 * (never). Throws for a period a clock cannot keep (see CLOCK_PERIODS_TEXT).
 */
export function cronEvery(seconds: number): string | null {
  if (seconds === 0) return null;
  if (!CLOCK_PERIODS.includes(seconds))
    throw new Error(`a period of ${seconds} s is not ${CLOCK_PERIODS_TEXT}`);
  if (seconds === 60) return '* * * * *';
  if (seconds < 3600) return `*/${seconds / 60} * * * *`;
  if (seconds === 3600) return '0 * * * *';
  if (seconds === 86_400) return '0 0 * * *';
  return `0 */${seconds / 3600} * * *`;
}

/**
 * The first time after `after` that `cron` names, read as pg-boss reads it (cron-parser, the same
 * version); only five fields (a seconds field would be one pg-boss runs once a minute anyway).
 */
export function nextCronTime(cron: string, after: Date, tz = 'UTC'): Date {
  if (cron.trim().split(/\s+/).length !== 5) {
    throw new Error(`a schedule is a cron of five fields (minute to day of week), not "${cron}"`);
  }
  return cronParser.parseExpression(cron, { tz, currentDate: after }).next().toDate();
}
