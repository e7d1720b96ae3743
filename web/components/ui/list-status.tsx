import { Trans } from '@lingui/react/macro';

/**
 * What a list shows instead of (or before) its rows: Loading..., a load failure, or its empty state.
 * Renders nothing once there are rows.
 */
export function ListStatus({
  isLoading,
  isError,
  count,
  errorText,
  emptyText,
}: {
  isLoading: boolean;
  isError: boolean;
  count: number;
  errorText: string;
  emptyText: string;
}) {
  if (isLoading)
    return (
      <p className="text-slate-600">
        <Trans>Loading...</Trans>
      </p>
    );
  if (isError) return <p className="text-red-700">{errorText}</p>;
  if (count > 0) return null;
  return (
    <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
      {emptyText}
    </p>
  );
}
