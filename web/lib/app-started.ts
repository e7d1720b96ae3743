/**
 * Marks the page `data-app="started"` once its screen listens: the router's part is mounted (or,
 * on a page the server drew, hydrated) and no lazily loaded part is still on its way. Until then a
 * tap on a server-drawn button may be lost (ADR 037); the browser journeys wait for the mark
 * (e2e/fixtures.ts). Lazily loaded parts are counted by `withMessages` (web/i18n/i18n.ts).
 */
let mounted = false;
let loading = 0;
let check = 0;
let markStarted!: () => void;
const started = new Promise<void>((resolve) => {
  markStarted = resolve;
});

function update(): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (!mounted || loading > 0) {
    delete root.dataset.app;
    return;
  }
  // Two frames: a part whose code just arrived is hydrated in the next ones.
  const turn = ++check;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      if (turn !== check || !mounted || loading > 0) return;
      root.dataset.app = 'started';
      markStarted();
    }),
  );
}

/** The router's part is on screen and listening. */
export function screenMounted(): void {
  mounted = true;
  update();
}

/** A lazily loaded part: counted until its code (and messages) arrive. */
export function trackLoad<T>(load: Promise<T>): Promise<T> {
  loading++;
  update();
  const settle = () => {
    loading--;
    update();
  };
  load.then(settle, settle);
  return load;
}

/**
 * Resolves the first time the page is marked started: its screen is hydrated (or mounted) and every
 * part it loaded has arrived. Work that can wait (the service worker's install) waits for it.
 */
export function whenAppStarted(): Promise<void> {
  return started;
}
