import { useEffect } from 'react';
import { showPendingToast } from '../components/ui/use-toast';
import { GateGuard } from '../features/gate/components/gate-guard';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/** The whole web app: providers, then the site gate, then the routes. */
export function App() {
  useEffect(showPendingToast, []);
  return (
    <AppProvider>
      <GateGuard>
        <AppRouter />
      </GateGuard>
    </AppProvider>
  );
}
