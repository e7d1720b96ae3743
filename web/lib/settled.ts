import { startTransition, useEffect, useState } from 'react';
import { whenAppStarted } from './app-started';
import { whenIdle } from './warm-up';

/** How long after the app has started the page counts as settled (ADR 109). */
const SETTLE_DELAY_MS = 5000;

let settled: Promise<void> | undefined;
let isSettled = false;

/**
 * Resolves once the page has settled: a few seconds after the app has started (its screen hydrated,
 * every part it loaded arrived), when the browser is idle. What only a member who stays needs waits
 * for it (ADR 109): the web app manifest, the service worker, the whole stylesheet (ADR 111) and the
 * header's menus (ADR 113).
 */
export function whenSettled(): Promise<void> {
  settled ??= whenAppStarted()
    .then(() => new Promise((resolve) => setTimeout(resolve, SETTLE_DELAY_MS)))
    .then(() => whenIdle())
    .then(() => {
      isSettled = true;
    });
  return settled;
}

/**
 * False until the page has settled, then true. False on the server and in the render that hydrates a
 * drawn page (the page settles after it), so the two agree; a screen drawn later starts with true.
 * The change is a transition: what it brings in may load lazily, and what stood in stays until it is
 * there (deferred-menu.tsx).
 */
export function useSettled(): boolean {
  const [value, setValue] = useState(isSettled);
  useEffect(() => {
    if (value) return;
    let live = true;
    whenSettled().then(() => {
      if (live) startTransition(() => setValue(true));
    });
    return () => {
      live = false;
    };
  }, [value]);
  return value;
}
