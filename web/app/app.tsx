import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { OfflineBanner } from '../components/layout/offline-banner';
import { ChunkFailedNotice } from '../components/layout/route-error-boundary';
import { SkipLink } from '../components/layout/skip-link';
import { showPendingToast } from '../components/ui/use-toast';
import { GateGuard } from '../features/gate/components/gate-guard';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/**
 * The whole web app: providers, then the site gate, then the routes. `queryClient` carries the data
 * the server rendered the page with (web/entry-server.tsx), if it did.
 */
export function App({ queryClient }: { queryClient?: QueryClient }) {
  useEffect(showPendingToast, []);
  return (
    <AppProvider queryClient={queryClient}>
      <SkipLink />
      <OfflineBanner />
      <ChunkFailedNotice />
      <GateGuard>
        <AppRouter />
      </GateGuard>
    </AppProvider>
  );
}
