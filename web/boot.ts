import type * as ImportChunk from './lib/import-chunk';
import { drawnClasses, unstyledBy, watchForUnstyled } from './lib/unstyled-watch';

/**
 * The scripts of a page the server drew (ADR 037), asked for once the page has painted: on a slow
 * phone connection the page's text and photos then have the line to themselves, and the app takes
 * the page over a moment later (server/plugins/page-render.ts writes the list this reads).
 */
interface AppScripts {
  entry: string;
  /** The helper that asks again for a chunk that failed (web/lib/import-chunk.ts, an entry of its own). */
  helper?: string;
  preload: string[];
  /** The app's whole stylesheets: the page carries only the part it needs (ADR 094). */
  styles?: string[];
  /** The classes that part is written for beyond the page's own: what the app draws on its own (ADR 113). */
  unprompted?: string[];
}

/** What a member does first that the app may answer by drawing: the whole stylesheet is applied before it. */
const FIRST_REACH = ['pointerdown', 'keydown', 'focusin', 'popstate'] as const;

/** Sent by web/main.tsx once the page has settled (ADR 109): what waited for the first reach is done then. */
const SETTLED_EVENT = 'barterhood:settled';

/** `<html data-intl>` while the locale worker loads (read by web/lib/warm-up.ts, ADR 117). */
const INTL_WARMING = 'warming';
/** Sent when the locale worker is done, or has failed. */
const INTL_READY_EVENT = 'barterhood:intl-ready';

/** Module preloads added to the head in one task: each costs the main thread a little (about 1.5 ms on a slow host). */
const PRELOADS_PER_TASK = 6;

/**
 * ICU's locale data loaded in a worker while the app's scripts arrive (web/lib/intl-warm-up.worker.ts):
 * the app's first number, plural, date and relative-time formatters then find it ready instead of
 * loading it on the main thread (web/lib/warm-up.ts), where the first of them was a task of 21-34 ms
 * on a slow host (a phone's 80-140). Where there are no workers, the main thread loads it as before.
 */
function warmUpIntl(): void {
  if (typeof Worker !== 'function') return;
  const root = document.documentElement;
  try {
    const worker = new Worker(new URL('./lib/intl-warm-up.worker.ts', import.meta.url), {
      type: 'module',
      name: 'intl-warm-up',
    });
    // While the worker loads, the app's own warm-up waits for it (web/lib/warm-up.ts, ADR 117): a
    // formatter made on the main thread meanwhile loaded the same data there, a task of 25 ms (100
    // at a phone's speed), or waited on the worker's load.
    root.dataset.intl = INTL_WARMING;
    const done = () => {
      worker.terminate();
      delete root.dataset.intl;
      window.dispatchEvent(new Event(INTL_READY_EVENT));
    };
    worker.addEventListener('message', done, { once: true });
    worker.addEventListener('error', done, { once: true });
    worker.postMessage(root.lang || 'en');
  } catch {
    // A browser that refuses the worker: the main thread loads the data at its first formatter.
    delete root.dataset.intl;
  }
}

function start(): void {
  const list = document.getElementById('app-scripts')?.textContent;
  if (!list) return;
  // In a task of its own, after this one.
  setTimeout(warmUpIntl, 0);
  const { entry, helper, preload, styles = [], unprompted = [] } = JSON.parse(list) as AppScripts;
  const addLink = (
    rel: string,
    href: string,
    extra: { as?: string; crossOrigin?: string; media?: string } = {},
  ) => {
    const link = Object.assign(document.createElement('link'), { rel, href, ...extra });
    document.head.append(link);
    return link;
  };
  // The whole stylesheet before the scripts, fetched and read now but applied (media "all") only at
  // the member's first touch, key, focus or history step, in the capture phase so before anything
  // the app draws for it, or once web/main.tsx says the page has settled (ADR 111). Applied, it
  // restyles every element of a page its own part already styles (a task of 15-30 ms on a slow host).
  const whole = styles.map((href) => addLink('stylesheet', href, { crossOrigin: '', media: 'print' }));
  // With it goes the style that keeps a touch phone's scroll indicator undrawn while the page starts
  // (server/plugins/page-render.ts, ADR 112).
  let stopWatching = () => {};
  const applyWhole = () => {
    for (const type of FIRST_REACH) window.removeEventListener(type, applyWhole, { capture: true });
    window.removeEventListener(SETTLED_EVENT, applyWhole);
    stopWatching();
    for (const link of whole) link.media = 'all';
    document.querySelector('style[data-starting]')?.remove();
  };
  for (const link of whole) link.dataset.whole = '';
  for (const type of FIRST_REACH) window.addEventListener(type, applyWhole, { capture: true, passive: true });
  window.addEventListener(SETTLED_EVENT, applyWhole);
  // And at once when the app draws, before that, an element with a class the whole stylesheet styles
  // and the page's part was not written for (a live update's new line on a card): before it is
  // painted, so it never shows unstyled, and never moves under the member's first press when the
  // whole stylesheet applies (ADR 119). The page's own classes are read here, before the app has
  // changed anything.
  if (whole.length > 0) {
    const unstyled = unstyledBy(drawnClasses(document, unprompted), () => whole.map((link) => link.sheet));
    stopWatching = watchForUnstyled(document.body, unstyled, applyWhole);
  }
  // The web app manifest waits until the page has settled (web/main.tsx, ADR 109).
  // The first screen's messages in the page's language (scripts/split-catalogues.ts), first.
  addLink('preload', `/locales/${document.documentElement.lang}-first.json`, {
    as: 'fetch',
    crossOrigin: '',
  });
  // The entry and the chunks it imports, asked for at once, a few preloads to a task (on a slow host
  // twenty at once made one task of 33 ms, a phone's 130).
  const modules = [entry, ...preload];
  const addPreloads = (from: number) => {
    const links = document.createDocumentFragment();
    for (const href of modules.slice(from, from + PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      links.append(link);
    }
    document.head.append(links);
    if (from + PRELOADS_PER_TASK < modules.length) setTimeout(() => addPreloads(from + PRELOADS_PER_TASK), 0);
  };
  addPreloads(0);
  // Then evaluated a chunk a task, the entry's imports first (the server lists them in the order they
  // import each other, ADR 105): as one module graph, React, the other libraries and the app were
  // one task of 40-60 ms on a slow host. Each is asked for again once if it fails (ADR 052); if one
  // still cannot arrive, the page stays as the server drew it, its links plain links, and the next
  // page loaded asks anew.
  const evaluateInStages = async () => {
    // The helper comes now, with the chunks: imported by boot itself, it was a second script of high
    // priority beside boot before the first paint, which Lighthouse's simulation counts towards the
    // paint (ADR 115). Asked for by its URL, as the chunks are (Vite wraps a named dynamic import in
    // a helper of the app's chunk).
    const { importChunk }: typeof ImportChunk = helper
      ? await import(/* @vite-ignore */ helper)
      : { importChunk: (load: () => Promise<unknown>) => load() };
    for (const href of preload) {
      await importChunk(() => import(/* @vite-ignore */ href), { quiet: true });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await importChunk(() => import(/* @vite-ignore */ entry), { quiet: true });
  };
  evaluateInStages().catch((error: unknown) => console.warn('The app did not start on this page', error));
}

/** Once the screen's first photo (the feed's first card) is in, or has failed, or 1.5 s have passed. */
function afterFirstPhoto(then: () => void): void {
  const photo = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  if (!photo || photo.complete) {
    then();
    return;
  }
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    then();
  };
  photo.addEventListener('load', go, { once: true });
  photo.addEventListener('error', go, { once: true });
  setTimeout(go, 1500);
}

/** After the next frame is painted: two animation frames (the second runs once the first is drawn), then a task. */
function afterNextPaint(then: () => void): void {
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(then, 0)));
}

// After the first frame with the page in it is painted, and then the frame with its first photo: a
// photo that has just arrived is drawn in the next frame, and the app's requests and the whole
// stylesheet's restyle must not come before that (the photo is the feed's largest paint; in a
// Lighthouse run where boot started between the photo's arrival and its paint, the scripts' download
// counted in the simulated paint: LCP 1.52 s instead of 1.1, ADR 105).
afterNextPaint(() => afterFirstPhoto(() => afterNextPaint(start)));
