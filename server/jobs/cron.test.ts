import { describe, expect, it } from 'vitest';
import { CLOCK_PERIODS, cronEvery, isClockPeriod, nextCronTime } from './cron';

describe('periods as crons', () => {
  it('writes each period a clock keeps as a cron counted from midnight', () => {
    expect(cronEvery(0)).toBeNull();
    expect(cronEvery(60)).toBe('* * * * *');
    expect(cronEvery(600)).toBe('*/10 * * * *');
    expect(cronEvery(1800)).toBe('*/30 * * * *');
    expect(cronEvery(3600)).toBe('0 * * * *');
    expect(cronEvery(6 * 3600)).toBe('0 */6 * * *');
    expect(cronEvery(86_400)).toBe('0 0 * * *');
  });

  it('each cron runs exactly every period from midnight on (two hours, or two periods)', () => {
    const midnight = new Date('2026-03-01T00:00:00Z');
    for (const seconds of CLOCK_PERIODS) {
      const cron = cronEvery(seconds) as string;
      let at = new Date(midnight.getTime() - 1);
      const times: number[] = [];
      const until = midnight.getTime() + Math.max(2 * 3600, 2 * seconds) * 1000;
      while (at.getTime() < until) {
        at = nextCronTime(cron, at);
        times.push(at.getTime());
      }
      const gaps = new Set(times.slice(1).map((time, i) => (time - (times[i] as number)) / 1000));
      expect([...gaps], cron).toEqual([seconds]);
      expect(times[0], cron).toBe(midnight.getTime());
    }
  });

  it('refuses a period a clock cannot keep, and a cron with seconds', () => {
    for (const seconds of [1, 30, 59, 90, 420, 5400, 86_401]) {
      expect(isClockPeriod(seconds)).toBe(false);
      expect(() => cronEvery(seconds)).toThrow(
        `a period of ${seconds} s is not 0 (never), or a whole number`,
      );
    }
    expect(isClockPeriod(0)).toBe(true);
    expect(() => nextCronTime('*/5 * * * * *', new Date())).toThrow('a schedule is a cron of five fields');
  });
});
