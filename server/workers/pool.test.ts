/**
 * The worker pool (issue 27, ADR 048): heavy work runs beside the event loop, a task's own error
 * reaches its caller, a thread that dies or overruns is ended and replaced, idle threads end, and
 * graceful shutdown closes the pool.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { solveTradesOffThread } from '../features/circles';
import { parseTradelist } from '../features/circles/engine/tradelist';
import { gracefulShutdown } from '../shutdown';
import { closeWorkerPool, dedicatedPool, poolSize, WorkerPool, WorkerPoolError, workerPool } from './pool';
import { HEAVY_WORK_NICE } from './thread-priority';

const MISBEHAVING = new URL('./fixtures/test-worker.mjs', import.meta.url);
const canadaTrade = () =>
  parseTradelist(
    readFileSync(new URL('../features/circles/engine/fixtures/olwlg-286870.txt', import.meta.url), 'utf8'),
  ).graph;

afterAll(() => closeWorkerPool());

/** Poll until `check` holds (at most 10 s). */
async function until(check: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('not within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the worker pool', () => {
  it('is sized from the cores: at least two threads, at most four', () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => poolSize(cores))).toEqual([2, 2, 2, 3, 4, 4]);
  });

  it('leaves the event loop free while a long solve runs', async () => {
    // HiGHS loaded and a thread started first: what is measured is the solve alone.
    await solveTradesOffThread(parseTradelist('(a) A : B\n(b) B : A').graph);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const solution = await solveTradesOffThread(canadaTrade());
      // The Canadian math trade of summer 2021: TradeMaximizer traded 166 items.
      expect(solution.itemsTraded).toBe(166);
    } finally {
      clearInterval(timer);
    }
    // Timers kept firing on this thread while HiGHS worked (hundreds of milliseconds alone, seconds
    // on a busy machine); on the event loop, none could.
    expect(ticks).toBeGreaterThan(5);
  }, 120_000);

  it("rejects a task that throws with the task's own error, and keeps serving", async () => {
    const pool = new WorkerPool({ filename: MISBEHAVING, maxThreads: 1 });
    try {
      const failure = pool.runNamed('throw', { message: 'no such trade' });
      await expect(failure).rejects.toThrow(RangeError);
      await expect(failure).rejects.toThrow('no such trade');
      expect(await pool.runNamed('echo', { still: 'here' })).toEqual({ still: 'here' });
    } finally {
      await pool.close();
    }
  });

  it('rejects the task of a thread that dies with a clear error, and replaces the thread', async () => {
    const onError = vi.fn();
    const pool = new WorkerPool({ filename: MISBEHAVING, maxThreads: 1, onError });
    try {
      const before = await pool.runNamed('threadId', null);
      const crash = pool.runNamed('exit', null);
      await expect(crash).rejects.toBeInstanceOf(WorkerPoolError);
      await expect(crash).rejects.toMatchObject({
        reason: 'crashed',
        message: expect.stringMatching(/task exit failed: its worker thread died/),
      });
      const after = await pool.runNamed('threadId', null);
      expect(after).not.toBe(before);
      expect(await pool.runNamed('echo', 7)).toBe(7);
    } finally {
      await pool.close();
    }
  });

  it('stops a task past its time limit (its thread is ended) and runs the next on a fresh one', async () => {
    const pool = new WorkerPool({ filename: MISBEHAVING, maxThreads: 1 });
    try {
      const before = await pool.runNamed('threadId', null);
      await expect(pool.runNamed('spin', { ms: 60_000 }, { timeoutMs: 100 })).rejects.toMatchObject({
        name: 'WorkerPoolError',
        reason: 'timeout',
        message: 'task spin ran past its 100 ms limit and was stopped',
      });
      expect(await pool.runNamed('threadId', null)).not.toBe(before);
    } finally {
      await pool.close();
    }
  });

  it('stops a task its caller aborts', async () => {
    const pool = new WorkerPool({ filename: MISBEHAVING, maxThreads: 1 });
    try {
      const controller = new AbortController();
      const running = pool.runNamed('spin', { ms: 60_000 }, { signal: controller.signal });
      controller.abort();
      await expect(running).rejects.toMatchObject({ reason: 'aborted' });
    } finally {
      await pool.close();
    }
  });

  it('starts no thread before the first task, and ends idle ones', async () => {
    const pool = new WorkerPool({ filename: MISBEHAVING, maxThreads: 2, idleMs: 50 });
    try {
      expect(pool.stats()).toMatchObject({ threads: 0, running: 0, queued: 0, completed: 0 });
      const tasks = [
        pool.runNamed('spin', { ms: 200 }),
        pool.runNamed('spin', { ms: 200 }),
        pool.runNamed('echo', 1),
      ];
      expect(pool.stats().queued + pool.stats().running).toBe(3);
      await Promise.all(tasks);
      expect(pool.stats().completed).toBe(3);
      await until(() => pool.stats().threads === 0);
    } finally {
      await pool.close();
    }
  });

  it('ends its threads as soon as a one-off task is done and no other task runs', async () => {
    // The idle time is the server's (30 s): only the one-off mark can end the threads this soon.
    const pool = new WorkerPool({ filename: MISBEHAVING, maxThreads: 2 });
    try {
      expect(await pool.runNamed('echo', 1)).toBe(1);
      expect(pool.stats().threads).toBe(1);
      // Another task still runs: the one-off task leaves the threads alone. The other task holds its
      // thread until released (a timed spin could end first on a busy machine, where starting the
      // second thread took longer than the spin).
      const flag = new Int32Array(new SharedArrayBuffer(4));
      const other = pool.runNamed('hold', { flag: flag.buffer });
      expect(await pool.runNamed('echo', 2, { oneOff: true })).toBe(2);
      expect(pool.stats().threads).toBe(2);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      expect(await other).toBe('released');
      expect(await pool.runNamed('echo', 3, { oneOff: true })).toBe(3);
      expect(pool.stats()).toMatchObject({ threads: 0, running: 0, queued: 0, completed: 4 });
      // The next task gets a fresh thread, and the count goes on.
      expect(await pool.runNamed('echo', 4)).toBe(4);
      expect(pool.stats()).toMatchObject({ threads: 1, completed: 5 });
    } finally {
      await pool.close();
    }
  });

  it('is closed by graceful shutdown: a task after it is refused', async () => {
    const pool = workerPool();
    expect(await pool.run('echo', 'before')).toBe('before');
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;
    const app = {
      loadShedding: { startClosing: vi.fn() },
      close: vi.fn(async () => undefined),
      server: { listening: false, closeAllConnections: vi.fn() },
    } as unknown as FastifyInstance;
    const database = { close: vi.fn(async () => undefined) } as unknown as DatabaseHandle;
    const exited = new Promise<number>((resolve) => {
      void gracefulShutdown({ app, database, logger, exit: resolve, drainMs: 1 })('SIGTERM');
    });
    expect(await exited).toBe(0);
    expect(pool.stats().threads).toBe(0);
    await expect(pool.run('echo', 'after')).rejects.toMatchObject({ reason: 'closed' });
    // The next user of the process's pool gets a new one.
    expect(workerPool()).not.toBe(pool);
  });

  it.runIf(process.platform === 'linux')(
    'lowers the threads of the shared pool, and of a dedicated one unless it says otherwise (ADR 098, 127)',
    async () => {
      const main = os.getPriority(0);
      const lowered = Math.max(main, HEAVY_WORK_NICE);
      expect(await workerPool().run('niceness', {})).toBe(lowered);
      expect(await dedicatedPool('test-lowered', 1).run('niceness', {})).toBe(lowered);
      expect(await dedicatedPool('test-serving', 1, { lowered: false }).run('niceness', {})).toBe(main);
      expect(os.getPriority(0)).toBe(main);
    },
  );

  it('keeps a dedicated pool apart from the shared one, one per name, and closes it with it', async () => {
    const passwords = dedicatedPool('test-dedicated', 1);
    expect(dedicatedPool('test-dedicated', 1)).toBe(passwords);
    expect(passwords).not.toBe(workerPool());
    expect(passwords.stats().maxThreads).toBe(1);
    // Its threads are its own: a task there starts one, and the shared pool's count is unchanged.
    const sharedBefore = workerPool().stats().completed;
    expect(await passwords.run('echo', 'apart')).toBe('apart');
    expect(passwords.stats()).toMatchObject({ threads: 1, completed: 1 });
    expect(workerPool().stats().completed).toBe(sharedBefore);
    await closeWorkerPool();
    expect(passwords.stats().threads).toBe(0);
    await expect(passwords.run('echo', 'after')).rejects.toMatchObject({ reason: 'closed' });
    expect(dedicatedPool('test-dedicated', 1)).not.toBe(passwords);
  });
});
