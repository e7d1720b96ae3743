import { importChunk } from './lib/import-chunk';

/**
 * The scripts of a page the server drew (ADR 037), asked for once the page has painted: on a slow
 * phone connection the page's text and photos then have the line to themselves, and the app takes
 * the page over a moment later (server/plugins/page-render.ts writes the list this reads).
 */
interface AppScripts {
  entry: string;
  preload: string[];
}

function start(): void {
  const list = document.getElementById('app-scripts')?.textContent;
  if (!list) return;
  const { entry, preload } = JSON.parse(list) as AppScripts;
  const links = document.createDocumentFragment();
  for (const href of preload) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    links.append(link);
  }
  // The first screen's messages in the page's language (scripts/split-catalogues.ts), beside them.
  const messages = document.createElement('link');
  messages.rel = 'preload';
  messages.as = 'fetch';
  messages.crossOrigin = '';
  messages.href = `/locales/${document.documentElement.lang}-first.json`;
  links.append(messages);
  document.head.append(links);
  // Asked for again once if it fails (ADR 052); if it still cannot arrive, the page stays as the server
  // drew it, its links plain links, and the next page loaded asks anew.
  importChunk(() => import(/* @vite-ignore */ entry), { quiet: true }).catch((error: unknown) =>
    console.warn('The app did not start on this page', error),
  );
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
