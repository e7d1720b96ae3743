import { Trans } from '@lingui/react/macro';
import { ApiError } from '../../lib/api-client';
import { Button } from './button';

/** The read behind a screen's part, for its Try again. */
export interface RetryableRead {
  error: unknown;
  refetch: () => unknown;
}

/**
 * A read that failed (after its one retry of a 503, ADR 052): what could not be loaded, the server's
 * sentence when it said why (a busy server: "The service is temporarily unavailable..."), and Try again.
 */
export function LoadFailed({
  text,
  read,
  className,
}: {
  text: string;
  read: RetryableRead;
  className?: string;
}) {
  const busy =
    read.error instanceof ApiError && read.error.status === 503 ? read.error.serverMessage : undefined;
  return (
    <div className={className ?? 'rounded-xl border border-red-200 bg-red-50 p-4 text-red-800'}>
      <p>{text}</p>
      {busy ? <p className="mt-1 text-sm">{busy}</p> : null}
      <Button variant="secondary" className="mt-3" onClick={() => void read.refetch()}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}

/**
 * What a list shows instead of (or before) its rows: Loading..., a load failure (with Try again when
 * given its `read`), or its empty state. Renders nothing once there are rows.
 */
export function ListStatus({
  isLoading,
  isError,
  count,
  errorText,
  emptyText,
  read,
}: {
  isLoading: boolean;
  isError: boolean;
  count: number;
  errorText: string;
  emptyText: string;
  read?: RetryableRead;
}) {
  if (isLoading)
    return (
      <p className="text-slate-600">
        <Trans>Loading...</Trans>
      </p>
    );
  if (isError)
    return read ? <LoadFailed text={errorText} read={read} /> : <p className="text-red-700">{errorText}</p>;
  if (count > 0) return null;
  return (
    <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
      {emptyText}
    </p>
  );
}
