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
  document.head.append(links);
  void import(/* @vite-ignore */ entry);
}

// After the next frame is painted: a frame, then a task.
requestAnimationFrame(() => setTimeout(start, 0));
