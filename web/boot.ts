import { importChunk } from './lib/import-chunk';

/**
 * The scripts of a page the server drew (ADR 037), asked for once the page has painted: on a slow
 * phone connection the page's text and photos then have the line to themselves, and the app takes
 * the page over a moment later (server/plugins/page-render.ts writes the list this reads).
 */
interface AppScripts {
  entry: string;
  preload: string[];
  /** The app's whole stylesheets: the page carries only the part it needs (ADR 094). */
  styles?: string[];
  /** The web app manifest, for installing the app: not needed to paint the page. */
  manifest?: string;
}

/** Module preloads added to the head in one task: each costs the main thread a little (about 1.5 ms on a slow host). */
const PRELOADS_PER_TASK = 6;

function start(): void {
  const list = document.getElementById('app-scripts')?.textContent;
  if (!list) return;
  const { entry, preload, styles = [], manifest } = JSON.parse(list) as AppScripts;
  const addLink = (rel: string, href: string, extra: { as?: string; crossOrigin?: string } = {}) => {
    const link = Object.assign(document.createElement('link'), { rel, href, ...extra });
    document.head.append(link);
  };
  // The whole stylesheet before the scripts: it is small, and the app draws what the page did not.
  for (const href of styles) addLink('stylesheet', href, { crossOrigin: '' });
  if (manifest) addLink('manifest', manifest);
  // The first screen's messages in the page's language (scripts/split-catalogues.ts), first.
  addLink('preload', `/locales/${document.documentElement.lang}-first.json`, {
    as: 'fetch',
    crossOrigin: '',
  });
  // Asked for again once if it fails (ADR 052); if it still cannot arrive, the page stays as the server
  // drew it, its links plain links, and the next page loaded asks anew.
  importChunk(() => import(/* @vite-ignore */ entry), { quiet: true }).catch((error: unknown) =>
    console.warn('The app did not start on this page', error),
  );
  // The entry's own imports, asked for beside it a few at a time, each few in a task of its own (on a
  // slow host all twenty at once made one task of 33 ms, a phone's 130).
  const addPreloads = (from: number) => {
    const links = document.createDocumentFragment();
    for (const href of preload.slice(from, from + PRELOADS_PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      links.append(link);
    }
    document.head.append(links);
    if (from + PRELOADS_PER_TASK < preload.length) setTimeout(() => addPreloads(from + PRELOADS_PER_TASK), 0);
  };
  addPreloads(0);
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

// After the first frame with the page in it is painted (two frames, then a task), and its first photo.
requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => afterFirstPhoto(start), 0)));
