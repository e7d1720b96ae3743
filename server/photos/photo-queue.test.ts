import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../errors';
import { PhotoQueue } from './photo-queue';

/** Work that ends when the test says so. */
function controlledWork() {
  let finish: (value: string) => void = () => {};
  let started = false;
  const work = () => {
    started = true;
    return new Promise<string>((resolve) => (finish = resolve));
  };
  return { work, finish: (value = 'done') => finish(value), started: () => started };
}

/** Let pending promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => vi.useRealTimers());

describe('PhotoQueue', () => {
  it('runs at most `concurrency` photos at once, the others in the order they came', async () => {
    const queue = new PhotoQueue(2, 2);
    const jobs = [controlledWork(), controlledWork(), controlledWork(), controlledWork()];
    const results = jobs.map((job) => queue.reserve().run(job.work));
    await settle();
    expect(jobs.map((job) => job.started())).toEqual([true, true, false, false]);
    expect(queue.stats()).toEqual({ held: 4, running: 2, waiting: 2, capacity: 4 });

    jobs[1]?.finish('second');
    expect(await results[1]).toBe('second');
    await settle();
    expect(jobs.map((job) => job.started())).toEqual([true, true, true, false]);

    jobs[0]?.finish();
    await settle();
    expect(jobs[3]?.started()).toBe(true);
    for (const job of jobs) job.finish();
    await Promise.all(results);
    expect(queue.stats()).toEqual({ held: 0, running: 0, waiting: 0, capacity: 4 });
  });

  it('refuses a place beyond its capacity with 503 PHOTO_QUEUE_FULL and a Retry-After, then takes one again', async () => {
    const queue = new PhotoQueue(1, 1);
    const running = controlledWork();
    const first = queue.reserve().run(running.work);
    const second = queue.reserve();
    expect(queue.isFull()).toBe(true);

    const refusal = (() => {
      try {
        queue.reserve();
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ statusCode: 503, code: 'PHOTO_QUEUE_FULL', retryAfterSeconds: 1 });

    running.finish();
    await first;
    expect(queue.isFull()).toBe(false);
    const third = queue.reserve();
    second.release();
    third.release();
    expect(queue.stats().held).toBe(0);
  });

  it('gives a place back on release: unused at once, waiting with its run refused, running only when done', async () => {
    const queue = new PhotoQueue(1, 2);
    const unused = queue.reserve();
    unused.release();
    unused.release();
    expect(queue.stats().held).toBe(0);

    const running = controlledWork();
    const runningTicket = queue.reserve();
    const runningResult = runningTicket.run(running.work);
    const waitingTicket = queue.reserve();
    const waiting = controlledWork();
    const waitingResult = waitingTicket.run(waiting.work).catch((error: unknown) => error);
    const next = controlledWork();
    const nextResult = queue.reserve().run(next.work);
    await settle();
    expect(queue.stats()).toMatchObject({ held: 3, running: 1, waiting: 2 });

    waitingTicket.release();
    expect(await waitingResult).toMatchObject({ statusCode: 400 });
    expect(queue.stats()).toMatchObject({ held: 2, running: 1, waiting: 1 });

    runningTicket.release();
    expect(queue.stats()).toMatchObject({ held: 2, running: 1 });
    running.finish();
    await runningResult;
    await settle();
    expect(waiting.started()).toBe(false);
    expect(next.started()).toBe(true);
    next.finish();
    await nextResult;
    expect(queue.stats()).toMatchObject({ held: 0, running: 0, waiting: 0 });
  });

  it('gives the place back when the work fails, and runs a ticket only once', async () => {
    const queue = new PhotoQueue(1, 0);
    const ticket = queue.reserve();
    await expect(ticket.run(() => Promise.reject(new Error('bad pixels')))).rejects.toThrow('bad pixels');
    expect(queue.stats().held).toBe(0);
    await expect(ticket.run(async () => 'again')).rejects.toThrow('run() is once per ticket');

    // Released first (the client went away): the work is refused as a client error, never run.
    const released = queue.reserve();
    released.release();
    let ran = false;
    await expect(released.run(async () => (ran = true))).rejects.toMatchObject({ statusCode: 400 });
    expect(ran).toBe(false);
    expect(queue.stats().held).toBe(0);
  });

  it('says to retry after the time places have lately been held, in whole seconds', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const queue = new PhotoQueue(1, 0);
    expect(queue.retryAfterSeconds()).toBe(1);
    for (let i = 0; i < 20; i++) {
      const ticket = queue.reserve();
      await ticket.run(async () => {
        vi.advanceTimersByTime(4200);
      });
    }
    expect(queue.retryAfterSeconds()).toBe(5);
    expect(() => queue.reserve().run(() => new Promise(() => {}))).not.toThrow();
    expect(() => queue.reserve()).toThrow(/try again in 5 seconds/);
  });
});
