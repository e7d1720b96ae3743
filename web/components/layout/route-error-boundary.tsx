import { Trans } from '@lingui/react/macro';
import { AlertCircle, RotateCw } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import { Link } from 'wouter';
import { CHUNK_FAILED_EVENT, ChunkLoadError, reloadPage } from '../../lib/import-chunk';
import { paths } from '../../lib/paths';
import { Button } from '../ui/button';
import { Card } from '../ui/card';

/**
 * What the page shows when a part of the app could not be loaded (ADR 052): once in place of a
 * screen (`RouteErrorBoundary`), or, when no screen shows it (a form's checks, the QR code), as a
 * notice over the page (`ChunkFailedNotice`). Either way one way on: a full reload.
 */
const shown = { cards: 0 };
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const noCardShown = () => shown.cards === 0;

function ReloadButton() {
  return (
    <Button onClick={reloadPage}>
      <RotateCw className="h-4 w-4" aria-hidden="true" />
      <Trans>Reload</Trans>
    </Button>
  );
}

function ChunkFailedText() {
  return (
    <Trans>
      A part of Barterhood could not be downloaded: the connection may have dropped, or a new version was just
      published. Reload the page to get it.
    </Trans>
  );
}

/** In place of a screen whose code did not arrive, twice. */
function ChunkFailedCard() {
  useEffect(() => {
    shown.cards++;
    notify();
    return () => {
      shown.cards--;
      notify();
    };
  }, []);
  return (
    <ErrorCard title={<Trans>This page did not load</Trans>}>
      <p className="mt-3 text-sm text-slate-700">
        <ChunkFailedText />
      </p>
      <div className="mt-5 flex flex-wrap gap-2">
        <ReloadButton />
      </div>
    </ErrorCard>
  );
}

function ErrorCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-screen w-full items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md p-6" role="alert">
        <div className="flex items-center gap-2">
          <AlertCircle className="h-7 w-7 shrink-0 text-red-700" aria-hidden="true" />
          <h1 className="text-xl font-bold text-slate-900">{title}</h1>
        </div>
        {children}
      </Card>
    </main>
  );
}

interface BoundaryProps {
  /** The path shown: going elsewhere clears the error. */
  location: string;
  children: ReactNode;
}

/**
 * Around every route (web/app/router.tsx): an error while drawing a screen shows what happened and a
 * way on instead of a blank page. A screen whose code did not arrive (`ChunkLoadError`) offers Reload;
 * anything else offers Try again (the screen drawn anew) and the home page.
 */
export class RouteErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.warn('A screen failed to draw', error, info.componentStack);
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (this.state.error && previous.location !== this.props.location) this.setState({ error: null });
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (error instanceof ChunkLoadError) return <ChunkFailedCard />;
    return (
      <ErrorCard title={<Trans>Something went wrong</Trans>}>
        <p className="mt-3 text-sm text-slate-700">
          <Trans>This screen ran into a problem. Try again, or go back to the home page.</Trans>
        </p>
        <div className="mt-5 flex flex-wrap gap-2">
          <Button onClick={() => this.setState({ error: null })}>
            <Trans>Try again</Trans>
          </Button>
          <Button asChild variant="secondary">
            <Link href={paths.home} onClick={() => this.setState({ error: null })}>
              <Trans>Go to the home page</Trans>
            </Link>
          </Button>
        </div>
      </ErrorCard>
    );
  }
}

/**
 * Mounted once (web/app/app.tsx): when a part of the app failed to load twice outside a screen's
 * drawing (a form's checks, the flyer's QR code), a notice with Reload over the page.
 */
export function ChunkFailedNotice() {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const heard = () => setFailed(true);
    window.addEventListener(CHUNK_FAILED_EVENT, heard);
    return () => window.removeEventListener(CHUNK_FAILED_EVENT, heard);
  }, []);
  const noCard = useSyncExternalStore(subscribe, noCardShown, () => true);
  if (!failed || !noCard) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-2 bottom-20 z-[60] rounded-xl border border-red-200 bg-white p-4 shadow-lg md:inset-x-auto md:right-6 md:bottom-6 md:max-w-sm print:hidden"
    >
      <p className="text-sm text-slate-800">
        <ChunkFailedText />
      </p>
      <div className="mt-3">
        <ReloadButton />
      </div>
    </div>
  );
}
