import { Trans, useLingui } from '@lingui/react/macro';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Want } from '../../../../common/schemas/listings';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ListStatus } from '../../../components/ui/list-status';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { toast } from '../../../components/ui/use-toast';
import { formatMoney } from '../../../i18n/format';
import { translateKnown } from '../../../i18n/known-messages';
import { flattenOwnList } from '../../../lib/own-list';
import { useDeleteWant, useMyWants } from '../api/wants';
import { WantFormDialog } from './want-form-dialog';

/**
 * The Want List tab (spec section 2): count, Add Want, and each want with edit and delete. Wants
 * come a page at a time (Load More); the count is the server's total, not what is loaded.
 */
export function WantListTab() {
  const { t } = useLingui();
  const query = useMyWants();
  const { isLoading, isError } = query;
  const { rows: wants, total } = flattenOwnList(query.data?.pages);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Want | undefined>();
  const [deleting, setDeleting] = useState<Want | undefined>();
  const remove = useDeleteWant();
  const deletingTitle = deleting?.title ?? '';

  return (
    <section aria-labelledby="wants-heading" className="grid gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id="wants-heading" className="text-lg font-semibold">
          <Trans>Want List ({total})</Trans>
        </h2>
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          <Trans>Add Want</Trans>
        </Button>
      </div>
      <ListStatus
        isLoading={isLoading}
        isError={isError}
        read={query}
        count={wants.length}
        errorText={t`Your want list could not be loaded. Please try again.`}
        emptyText={t`Your want list is empty. Add what you are looking for and we will match it with neighbors' offers.`}
      />
      <ul className="grid gap-3 sm:grid-cols-2">
        {wants.map((want) => {
          const title = want.title;
          const maxValue = formatMoney(want.maxValue);
          return (
            <li
              key={want.id}
              className="grid gap-1 rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
            >
              <h3 className="font-semibold">{want.title}</h3>
              {want.description ? <p className="text-sm text-slate-600">{want.description}</p> : null}
              <div className="flex flex-wrap gap-1">
                <Badge tone="brand">{translateKnown(want.category)}</Badge>
                {want.isService ? (
                  <Badge tone="accent">
                    <Trans>Service</Trans>
                  </Badge>
                ) : null}
                {maxValue !== null ? (
                  <Badge>
                    <Trans>Up to {maxValue}</Trans>
                  </Badge>
                ) : null}
              </div>
              <div className="mt-1 flex gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setEditing(want)}
                  aria-label={t`Edit ${title}`}
                >
                  <Pencil className="h-4 w-4" aria-hidden="true" />
                  <Trans>Edit</Trans>
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setDeleting(want)}
                  aria-label={t`Delete ${title}`}
                >
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                  <Trans>Delete</Trans>
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      <LoadMoreButton query={query} label={t`Load More Wants`} />
      <WantFormDialog open={adding} onOpenChange={setAdding} />
      <WantFormDialog
        open={editing !== undefined}
        onOpenChange={(open) => !open && setEditing(undefined)}
        want={editing}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title={t`Delete this want?`}
        description={t`"${deletingTitle}" will be removed from your want list.`}
        confirmLabel={t`Delete Want`}
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: t`Want Deleted` });
              setDeleting(undefined);
            },
            onError: () =>
              toast({
                title: t`Error`,
                description: t`Failed to delete want. Please try again.`,
                variant: 'destructive',
              }),
          })
        }
      />
    </section>
  );
}
