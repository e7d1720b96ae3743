import { Trans, useLingui } from '@lingui/react/macro';
import type { Item } from '#common/schemas/listings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useRenewItem, useUpdateItem } from '../api/items';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days since the listing was last confirmed (listed, edited, renewed). */
function daysSince(iso: string | undefined, now = Date.now()): number {
  return iso ? Math.max(0, Math.floor((now - new Date(iso).getTime()) / DAY_MS)) : 0;
}

/**
 * A stale listing in My Items (issue 31, ADR 088): while "Still available?" is open, the question with
 * "Yes, still available" (renews it) and "No, it's gone" (hides it: Delete stays beside it); once it
 * left the feeds for want of an answer, why it is not shown and "Renew". Nothing otherwise.
 */
export function StaleListingQuestion({ item }: { item: Item }) {
  const { t } = useLingui();
  const renew = useRenewItem();
  const update = useUpdateItem();
  const stale = item.stale;
  if (!stale || item.traded) return null;
  const title = item.title;
  const failed = (error: unknown) =>
    toast({
      title: t`Error`,
      description: serverMessageOf(error, t`Failed to update item. Please try again.`),
      variant: 'destructive',
    });
  const onRenew = () =>
    renew.mutate(item.id, {
      onSuccess: () =>
        toast({ title: stale.pausedAt ? t`Listing renewed` : t`Thanks! Your listing stays listed` }),
      onError: failed,
    });
  const onGone = () =>
    update.mutate(
      { id: item.id, changes: { isActive: false } },
      { onSuccess: () => toast({ title: t`Listing hidden` }), onError: failed },
    );
  const pending = renew.isPending || update.isPending;

  if (stale.pausedAt !== null && !item.isActive) {
    const days = daysSince(item.confirmedAt);
    return (
      <div className="mt-1 grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950">
        <p>
          <Trans>Not shown in feeds: not confirmed for {days} days</Trans>
        </p>
        <div>
          <Button size="sm" onClick={onRenew} disabled={pending} aria-label={t`Renew ${title}`}>
            <Trans>Renew</Trans>
          </Button>
        </div>
      </div>
    );
  }
  if (!item.isActive) return null;
  return (
    <div className="mt-1 grid gap-2 rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950">
      <p className="font-semibold">
        <Trans>Still available?</Trans>
      </p>
      <div className="flex flex-wrap gap-1">
        <Button size="sm" onClick={onRenew} disabled={pending} aria-label={t`Yes, still available: ${title}`}>
          <Trans>Yes, still available</Trans>
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={onGone}
          disabled={pending}
          aria-label={t`No, it's gone: ${title}`}
        >
          <Trans>No, it's gone</Trans>
        </Button>
      </div>
    </div>
  );
}
