import { Trans } from '@lingui/react/macro';
import { WifiOff } from 'lucide-react';
import { useEffect } from 'react';
import { OFFLINE_REFUSED_EVENT, offlineRefusal, useOnline } from '../../lib/offline';
import { toast } from '../ui/use-toast';

/**
 * Says so while the browser is offline (ADR 034): the screens show what was last loaded, and writes are
 * refused. A refused write (web/lib/api-client.ts) gets the offline toast; it is shown after the
 * caller's own error toast, which it replaces, so the member reads why nothing was sent.
 */
export function OfflineBanner() {
  const online = useOnline();

  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const refused = () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        toast({ variant: 'destructive', ...offlineRefusal() });
      }, 0);
      timers.add(timer);
    };
    window.addEventListener(OFFLINE_REFUSED_EVENT, refused);
    return () => {
      window.removeEventListener(OFFLINE_REFUSED_EVENT, refused);
      for (const timer of timers) clearTimeout(timer);
    };
  }, []);

  // The status region stays in the page so screen readers announce the change when it fills.
  return (
    <div role="status">
      {online ? null : (
        <p className="flex items-center justify-center gap-2 border-b border-amber-300 bg-amber-100 px-4 py-2 text-center text-sm text-amber-950">
          <WifiOff className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span>
            <Trans>
              You are offline. You are seeing what was last loaded, and changes cannot be sent until you are
              back online.
            </Trans>
          </span>
        </p>
      )}
    </div>
  );
}
