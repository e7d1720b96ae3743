import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { activateLocale, startI18n, withMessages } from './i18n/i18n';
import { createQueryClient } from './lib/query-client';
import { whenSettled } from './lib/settled';
import { nextTask, warmUp } from './lib/warm-up';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');
const rootElement = root;
// A page the server rendered (ADR 037) comes with the data it was rendered with, in its language.
const pageData = document.getElementById('page-data');

// The catalogue of the member's language loads before the first render (ADR 036); if it cannot,
// English. Asked for in a task after the one that evaluated the app's code (ADR 105).
nextTask()
  .then(() => startI18n(pageData ? document.documentElement.lang : undefined))
  .catch(() => activateLocale('en'))
  // What the first render would build anyway, in short tasks of their own (web/lib/warm-up.ts).
  .then(() => warmUp(document.documentElement.lang || 'en'))
  .catch(() => undefined)
  .finally(() => {
    // As a transition, the first render (or the hydration of the server's) yields to the browser
    // every few milliseconds instead of holding the main thread for the whole tree.
    startTransition(() => {
      if (pageData?.textContent) {
        const queryClient = createQueryClient();
        hydrate(queryClient, JSON.parse(pageData.textContent));
        hydrateRoot(
          rootElement,
          <StrictMode>
            <App queryClient={queryClient} />
          </StrictMode>,
        );
      } else {
        createRoot(rootElement).render(
          <StrictMode>
            <App />
          </StrictMode>,
        );
      }
    });
  });

// What only a member who stays needs waits until the page has settled: a few seconds after the app has
// started (its screen hydrated, every part it loaded arrived), when the browser is idle (ADR 109).
const settled = whenSettled();

// The app's whole stylesheet on a page the server drew: web/boot.ts adds it unapplied (media "print")
// and applies it at the member's first touch, key, focus or history step, or when told here that the
// page has settled (ADR 111: applying it restyles the whole page, a task kept out of its start).
settled.then(() => window.dispatchEvent(new Event('barterhood:settled')));

// The web app manifest of a page the server drew (server/plugins/page-render.ts lists it for boot):
// with it Chromium fetches the app's icon and animates its install offer in its toolbar, about 100
// frames the browser drew while the page's own start-up work was running.
function linkManifest(): void {
  if (document.querySelector('link[rel="manifest"]')) return;
  const list = document.getElementById('app-scripts')?.textContent;
  const href = list ? (JSON.parse(list) as { manifest?: string }).manifest : undefined;
  if (!href) return;
  document.head.append(Object.assign(document.createElement('link'), { rel: 'manifest', href }));
}
settled
  .then(linkManifest)
  .catch((error: unknown) => console.warn('The web app manifest was not linked', error));

// The service worker (ADR 034) registers once the page has settled, from its own small chunk: its
// install asks for every precached file, work that competed with the page's own start on a phone's
// CPU and network (ADR 106, ADR 109).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => {
    withMessages(() => import('./lib/register-service-worker'), { quiet: true, background: true })
      .then((module) => module.registerServiceWorker())
      .catch((error: unknown) => console.warn('The service worker was not registered', error));
  };
  settled.then(register);
}
