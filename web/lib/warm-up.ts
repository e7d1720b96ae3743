import { cn, prepareClassMerge } from './utils';

/** A task of its own: the browser may paint and handle input before the next step. */
export const nextTask = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The browser's next idle period (at the latest after `timeoutMs`); a task where it has no idle callbacks. */
export const whenIdle = (timeoutMs = 2000): Promise<void> =>
  new Promise<void>((resolve) => {
    if (typeof requestIdleCallback === 'function')
      requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 0);
  });

/** `<html data-intl>` while web/boot.ts's worker loads the locale data, and the event it sends when done. */
const INTL_WARMING = 'warming';
const INTL_READY_EVENT = 'barterhood:intl-ready';
/** How long the warm-up waits for that worker at most: past it, the main thread loads the data itself. */
export const LOCALE_WORKER_WAIT_MS = 3000;

/**
 * Resolves once web/boot.ts's locale worker is done (ADR 117), at once where there is none, and after
 * LOCALE_WORKER_WAIT_MS at the latest. Seen in Lighthouse's traces: while the worker was still
 * loading, the first formatter on the main thread loaded the same data there, a task of 25 ms of CPU
 * (57 ms of wall time on a busy host, a phone's 230), which waiting leaves to the worker.
 */
export function whenLocaleWorkerDone(timeoutMs = LOCALE_WORKER_WAIT_MS): Promise<void> {
  if (typeof document === 'undefined' || document.documentElement.dataset.intl !== INTL_WARMING)
    return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      window.removeEventListener(INTL_READY_EVENT, done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    window.addEventListener(INTL_READY_EVENT, done);
  });
}

/**
 * Work the first render does anyway, done before it, each piece in a task of its own (issue 17): a
 * 16-20 ms step inside one of the hydration's slices makes that slice a long task (a phone's CPU is
 * four times slower; Lighthouse counts each task's time past 50 ms as blocking), on its own it stays
 * short. The pieces: tailwind-merge makes its configuration and builds its class map from it at its
 * first call (two steps here), and Chromium loads a locale's ICU data at the first number, plural,
 * date and relative-time formatter (the first of them costs most: V8 lists the locales ICU has). On a
 * page the server drew, web/boot.ts has a worker load that data while the scripts arrive (ADR 111);
 * the formatters' steps wait until it is done (ADR 117), and then take a fraction of a millisecond.
 */
export async function warmUp(locale: string): Promise<void> {
  for (const step of [prepareClassMerge, () => cn('p-1', 'p-2')]) {
    await nextTask();
    step();
  }
  await whenLocaleWorkerDone();
  // One formatter a step: on a slow host each locale data load alone took 10-40 ms, two at once
  // made one task of 40 ms (a phone's 160 ms).
  const steps = [
    () => new Intl.NumberFormat(locale).format(1.5),
    () => new Intl.PluralRules(locale).select(1),
    () => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }).format(0),
    () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'day'),
  ];
  for (const step of steps) {
    await nextTask();
    step();
  }
}
