import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { ApiError } from '../lib/api-client';

/**
 * The frame of a page that shows one thing fetched by its id (a barter, a trade circle, a swap day,
 * a pick-up sheet): "Loading..." while it loads; when it cannot be shown, the way back and why,
 * `missing` after a 404 and `failed` otherwise; else the page itself, from `children`.
 */
export function DetailScreen<T>({
  query,
  back,
  missing,
  failed,
  children,
}: {
  query: { data: T | undefined; isLoading: boolean; error: unknown };
  /** The way back, shown above the reason when the thing cannot be shown. */
  back: ReactNode;
  missing: string;
  failed: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isLoading)
    return (
      <p className="text-slate-600">
        <Trans>Loading...</Trans>
      </p>
    );
  if (!query.data) {
    const isMissing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="grid gap-3">
        {back}
        <p className={isMissing ? 'text-slate-700' : 'text-red-700'}>{isMissing ? missing : failed}</p>
      </div>
    );
  }
  return children(query.data);
}
