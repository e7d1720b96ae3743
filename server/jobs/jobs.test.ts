import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessJobs, type Job } from './jobs';

const quietLog = { warn() {}, error() {}, info() {}, debug() {} } as never;
/** Waits until `check` holds; fails the test when it does not within a second. */
const until = (check: () => boolean) => expect.poll(check, { timeout: 1_000, interval: 5 }).toBe(true);

describe('in-process jobs (the embedded database)', () => {
  it('runs each job sent to a standard queue, in order', async () => {
    const jobs = new InProcessJobs(quietLog);
    await jobs.createQueue('q');
    const seen: number[] = [];
    await jobs.work<{ n: number }>('q', {}, async (batch: Job<{ n: number }>[]) => {
      for (const job of batch) seen.push(job.data.n);
    });
    for (const n of [1, 2, 3]) expect(await jobs.send('q', { n })).not.toBeNull();
    await until(() => seen.length === 3);
    expect(seen).toEqual([1, 2, 3]);
    await jobs.stop();
  });

  it('a stately queue keeps one job waiting and one running', async () => {
    const jobs = new InProcessJobs(quietLog);
    await jobs.createQueue('drain', { policy: 'stately' });
    let runs = 0;
    let release: () => void = () => {};
    await jobs.work('drain', {}, async () => {
      runs++;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    expect(await jobs.send('drain', {})).not.toBeNull(); // runs at once
    await until(() => runs === 1);
    expect(await jobs.send('drain', {})).not.toBeNull(); // waits behind it
    expect(await jobs.send('drain', {})).toBeNull(); // one is already waiting
    release();
    await until(() => runs === 2);
    release();
    await jobs.stop();
    expect(runs).toBe(2);
  });

  it('retries a failed job, then gives up', async () => {
    const failedForGood: unknown[] = [];
    const log = { warn() {}, info() {}, debug() {}, error: (...args: unknown[]) => failedForGood.push(args) };
    const jobs = new InProcessJobs(log as never);
    await jobs.createQueue('flaky', { retryLimit: 2, retryDelay: 0 });
    let attempts = 0;
    await jobs.work('flaky', {}, async () => {
      attempts++;
      throw new Error('database busy');
    });
    await jobs.send('flaky', {});
    // The queue says when it gives up: no attempt can come after that.
    await until(() => failedForGood.length === 1);
    expect(attempts).toBe(3);
    expect((await jobs.backlog()).find((queue) => queue.queue === 'flaky')?.pending).toBe(0);
    await jobs.stop();
  });

  it('stop waits for the running job and takes no more', async () => {
    const jobs = new InProcessJobs(quietLog);
    await jobs.createQueue('q');
    let finished = false;
    await jobs.work('q', {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
    });
    await jobs.send('q', {});
    await jobs.stop();
    expect(finished).toBe(true);
    expect(await jobs.send('q', {})).toBeNull();
  });

  it("reports each queue's waiting jobs and the age of the oldest", async () => {
    const jobs = new InProcessJobs(quietLog);
    await jobs.createQueue('idle');
    await jobs.createQueue('busy');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await jobs.work('busy', {}, () => held);
    await jobs.send('busy', {}); // runs at once: not waiting
    vi.useFakeTimers({ toFake: ['Date'] });
    await jobs.send('busy', {});
    vi.advanceTimersByTime(20);
    await jobs.send('busy', {});
    const backlog = await jobs.backlog();
    expect(backlog.map(({ queue, pending }) => ({ queue, pending }))).toEqual([
      { queue: 'busy', pending: 2 },
      { queue: 'idle', pending: 0 },
    ]);
    expect(backlog[0]?.oldestAgeSeconds).toBe(0.02);
    expect(backlog[1]?.oldestAgeSeconds).toBe(0);
    release();
    await jobs.stop();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('a schedule sends the job at each time its cron names, not before, until unscheduled', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:30Z') });
    const jobs = new InProcessJobs(quietLog);
    await jobs.createQueue('tick', { policy: 'stately' });
    const runs: string[] = [];
    await jobs.work('tick', {}, async () => {
      runs.push(new Date().toISOString());
    });
    await jobs.schedule('tick', '*/2 * * * *', {});
    expect(await jobs.getSchedules()).toEqual([
      { name: 'tick', cron: '*/2 * * * *', timezone: 'UTC', data: {}, options: {} },
    ]);
    await vi.advanceTimersByTimeAsync(89_000); // 10:01:59
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(5 * 60_000); // 10:06:59
    expect(runs).toEqual([
      '2026-03-01T10:02:00.000Z',
      '2026-03-01T10:04:00.000Z',
      '2026-03-01T10:06:00.000Z',
    ]);
    // Scheduling again replaces the schedule: one timer, the new cron.
    await jobs.schedule('tick', '0 * * * *', {});
    await vi.advanceTimersByTimeAsync(60 * 60_000); // 11:06:59
    expect(runs.slice(3)).toEqual(['2026-03-01T11:00:00.000Z']);
    await jobs.unschedule('tick');
    expect(await jobs.getSchedules()).toEqual([]);
    await vi.advanceTimersByTimeAsync(3 * 60 * 60_000);
    expect(runs).toHaveLength(4);
    await jobs.stop();
  });

  it('a schedule needs its queue and a cron of five fields; stop ends every schedule', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:30Z') });
    const jobs = new InProcessJobs(quietLog);
    await expect(jobs.schedule('nowhere', '* * * * *')).rejects.toThrow('job queue nowhere was not created');
    await jobs.createQueue('q');
    await expect(jobs.schedule('q', '*/5 * * * * *')).rejects.toThrow('a schedule is a cron of five fields');
    let runs = 0;
    await jobs.work('q', {}, async () => {
      runs++;
    });
    await jobs.schedule('q', '* * * * *');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    await jobs.stop();
    expect(await jobs.getSchedules()).toEqual([]);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(runs).toBe(1);
  });
});
