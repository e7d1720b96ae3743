/// <reference types="vite-plugin-pwa/client" />

import { registerSW } from 'virtual:pwa-register';
import { t } from '@lingui/core/macro';
import { createElement } from 'react';
import { toast } from '../components/ui/use-toast';

/**
 * Registers the service worker vite-plugin-pwa generates (Workbox, ADR 034). Loaded lazily after the
 * page, so the entry chunk stays small. A new version waits until the member chooses to reload (or
 * closes every tab): swapping it under an open page could lose what a form holds.
 */
let registered = false;

export function registerServiceWorker(): void {
  // Once per page: the app registers it when the page has settled, or earlier when a member turns
  // push on (ADR 109); a second registration would offer each new version twice.
  if (registered) return;
  registered = true;
  const updateServiceWorker = registerSW({
    immediate: true,
    onNeedRefresh() {
      toast({
        title: t`A new version of Barterhood is ready`,
        description: createElement(
          'button',
          {
            type: 'button',
            className: 'mt-1 rounded-md border border-slate-300 px-3 py-1 font-medium hover:bg-slate-50',
            onClick: () => void updateServiceWorker(true),
          },
          t`Reload to update`,
        ),
      });
    },
  });
}
