import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALE_WORKER_WAIT_MS, warmUp, whenLocaleWorkerDone } from './warm-up';

/** What web/boot.ts does while its locale worker loads, and when it is done (ADR 117). */
const workerStarted = () => {
  document.documentElement.dataset.intl = 'warming';
};
const workerDone = () => {
  delete document.documentElement.dataset.intl;
  window.dispatchEvent(new Event('barterhood:intl-ready'));
};

/** Whether `promise` has settled once every pending task and microtask has run. */
async function hasSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return settled;
}

describe('the warm-up and the locale worker', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    delete document.documentElement.dataset.intl;
  });

  it('goes on at once where no worker is loading', async () => {
    vi.useFakeTimers();
    expect(await hasSettled(whenLocaleWorkerDone())).toBe(true);
  });

  it('waits while the worker loads, and goes on when it says it is done', async () => {
    vi.useFakeTimers();
    workerStarted();
    const waiting = whenLocaleWorkerDone();
    await vi.advanceTimersByTimeAsync(LOCALE_WORKER_WAIT_MS - 1);
    expect(await hasSettled(waiting)).toBe(false);
    workerDone();
    expect(await hasSettled(waiting)).toBe(true);
  });

  it('waits no longer than its limit for a worker that never answers', async () => {
    vi.useFakeTimers();
    workerStarted();
    const waiting = whenLocaleWorkerDone();
    expect(await hasSettled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(LOCALE_WORKER_WAIT_MS);
    expect(await hasSettled(waiting)).toBe(true);
  });

  it('makes no formatter on the main thread until the worker is done', async () => {
    vi.useFakeTimers();
    const relativeTimes = vi.spyOn(Intl.RelativeTimeFormat.prototype, 'format');
    const plurals = vi.spyOn(Intl.PluralRules.prototype, 'select');
    workerStarted();
    const warming = warmUp('es');
    await vi.advanceTimersByTimeAsync(100);
    expect(plurals).not.toHaveBeenCalled();
    expect(relativeTimes).not.toHaveBeenCalled();
    workerDone();
    await vi.runAllTimersAsync();
    await warming;
    expect(plurals).toHaveBeenCalledWith(1);
    expect(relativeTimes).toHaveBeenCalledWith(-1, 'day');
  });
});
