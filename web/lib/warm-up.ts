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

/**
 * Work the first render does anyway, done before it, each piece in a task of its own (issue 17): a
 * 16-20 ms step inside one of the hydration's slices makes that slice a long task (a phone's CPU is
 * four times slower; Lighthouse counts each task's time past 50 ms as blocking), on its own it stays
 * short. The pieces: tailwind-merge makes its configuration and builds its class map from it at its
 * first call (two steps here), and Chromium loads a locale's ICU data at the first number, plural,
 * date and relative-time formatter (the first of them costs most: V8 lists the locales ICU has). On a
 * page the server drew, web/boot.ts has a worker load that data while the scripts arrive (ADR 111),
 * and the formatters' steps here take a fraction of a millisecond.
 */
export async function warmUp(locale: string): Promise<void> {
  // One formatter a step: on a slow host each locale data load alone took 10-40 ms, two at once
  // made one task of 40 ms (a phone's 160 ms).
  const steps = [
    prepareClassMerge,
    () => cn('p-1', 'p-2'),
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
