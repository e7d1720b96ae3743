import { Trans } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { GATE_STORAGE_KEY, GATE_STORAGE_VALUE } from '#common/constants.ts';
import { GATE_CLOSED_EVENT } from '#web/lib/api-client.ts';
import { gateStatusQuery } from '../api/gate';
import { SiteGate } from './site-gate';

type GateState = 'loading' | 'locked' | 'granted';

function rememberedGrant(): boolean {
  try {
    return window.localStorage.getItem(GATE_STORAGE_KEY) === GATE_STORAGE_VALUE;
  } catch {
    return false;
  }
}

/** The loading view shown briefly while the gate is checked (spec section 2). */
export function LoadingView() {
  return (
    <output className="flex min-h-screen items-center justify-center text-slate-600" aria-live="polite">
      <Trans>Loading...</Trans>
    </output>
  );
}

/**
 * Shows the site gate until access is granted; remembers the grant in local storage (spec) and asks
 * the server when there is none, since the gate may be off or this browser may already hold the cookie.
 */
export function GateGuard({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<GateState>(() => {
    if (rememberedGrant()) return 'granted';
    // The server's render of the page asked already (web/entry-server.tsx).
    const known = queryClient.getQueryData(gateStatusQuery().queryKey);
    if (known) return known.granted ? 'granted' : 'locked';
    return 'loading';
  });

  const grant = useCallback(() => {
    try {
      window.localStorage.setItem(GATE_STORAGE_KEY, GATE_STORAGE_VALUE);
    } catch {
      // Private mode without storage: the httpOnly cookie still lets the API through.
    }
    setState('granted');
  }, []);

  useEffect(() => {
    if (state === 'granted' && !rememberedGrant()) grant();
    if (state !== 'loading') return;
    let cancelled = false;
    queryClient
      .fetchQuery(gateStatusQuery())
      .then((status) => {
        if (cancelled) return;
        if (status.granted) grant();
        else setState('locked');
      })
      .catch(() => {
        if (!cancelled) setState('locked');
      });
    return () => {
      cancelled = true;
    };
  }, [state, queryClient, grant]);

  useEffect(() => {
    const relock = () => {
      queryClient.clear();
      setState('locked');
    };
    window.addEventListener(GATE_CLOSED_EVENT, relock);
    return () => window.removeEventListener(GATE_CLOSED_EVENT, relock);
  }, [queryClient]);

  if (state === 'loading') return <LoadingView />;
  if (state === 'locked') return <SiteGate onGranted={grant} />;
  return <>{children}</>;
}
