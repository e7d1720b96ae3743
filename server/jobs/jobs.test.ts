import { describe, expect, it } from 'vitest';
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
    await jobs.send('busy', {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    await jobs.send('busy', {});
    const backlog = await jobs.backlog();
    expect(backlog.map(({ queue, pending }) => ({ queue, pending }))).toEqual([
      { queue: 'busy', pending: 2 },
      { queue: 'idle', pending: 0 },
    ]);
    expect(backlog[0]?.oldestAgeSeconds).toBeGreaterThanOrEqual(0.015);
    expect(backlog[0]?.oldestAgeSeconds).toBeLessThan(5);
    expect(backlog[1]?.oldestAgeSeconds).toBe(0);
    release();
    await jobs.stop();
  });
});
