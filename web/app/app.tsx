import { useEffect } from 'react';
import { OfflineBanner } from '../components/layout/offline-banner';
import { showPendingToast } from '../components/ui/use-toast';
import { GateGuard } from '../features/gate/components/gate-guard';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/** The whole web app: providers, then the site gate, then the routes. */
export function App() {
  useEffect(showPendingToast, []);
  return (
    <AppProvider>
      <OfflineBanner />
      <GateGuard>
        <AppRouter />
      </GateGuard>
    </AppProvider>
  );
}
