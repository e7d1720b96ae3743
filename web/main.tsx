import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { activateLocale, startI18n, withMessages } from './i18n/i18n';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('No #root element in index.html');
const rootElement = root;
// The catalogue of the member's language loads before the first render (ADR 036); if it cannot,
// English.
startI18n()
  .catch(() => activateLocale('en'))
  .finally(() => {
    // As a transition, the first render yields to the browser every few milliseconds instead of
    // holding the main thread for the whole tree (a phone's taps and paints get through).
    startTransition(() => {
      createRoot(rootElement).render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
  });

// The service worker (ADR 034) registers after the page has loaded, from its own small chunk.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener(
    'load',
    () => {
      withMessages(import('./lib/register-service-worker'))
        .then((module) => module.registerServiceWorker())
        .catch((error: unknown) => console.warn('The service worker was not registered', error));
    },
    { once: true },
  );
}
