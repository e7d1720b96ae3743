import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Want } from '../../../../common/schemas/listings';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ListStatus } from '../../../components/ui/list-status';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { toast } from '../../../components/ui/use-toast';
import { flattenOwnList } from '../../../lib/own-list';
import { useDeleteWant, useMyWants } from '../api/wants';
import { WantFormDialog } from './want-form-dialog';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * The Want List tab (spec section 2): count, Add Want, and each want with edit and delete. Wants
 * come a page at a time (Load More); the count is the server's total, not what is loaded.
 */
export function WantListTab() {
  const query = useMyWants();
  const { isLoading, isError } = query;
  const { rows: wants, total } = flattenOwnList(query.data?.pages);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Want | undefined>();
  const [deleting, setDeleting] = useState<Want | undefined>();
  const remove = useDeleteWant();

  return (
    <section aria-labelledby="wants-heading" className="grid gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id="wants-heading" className="text-lg font-semibold">
          Want List ({total})
        </h2>
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add Want
        </Button>
      </div>
      <ListStatus
        isLoading={isLoading}
        isError={isError}
        count={wants.length}
        errorText="Your want list could not be loaded. Please try again."
        emptyText="Your want list is empty. Add what you are looking for and we will match it with neighbors' offers."
      />
      <ul className="grid gap-3 sm:grid-cols-2">
        {wants.map((want) => (
          <li key={want.id} className="grid gap-1 rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
            <h3 className="font-semibold">{want.title}</h3>
            {want.description ? <p className="text-sm text-slate-600">{want.description}</p> : null}
            <div className="flex flex-wrap gap-1">
              <Badge tone="brand">{want.category}</Badge>
              {want.isService ? <Badge tone="accent">Service</Badge> : null}
              {want.maxValue !== null ? <Badge>Up to {money.format(want.maxValue)}</Badge> : null}
            </div>
            <div className="mt-1 flex gap-1">
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setEditing(want)}
                aria-label={`Edit ${want.title}`}
              >
                <Pencil className="h-4 w-4" aria-hidden="true" />
                Edit
              </Button>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setDeleting(want)}
                aria-label={`Delete ${want.title}`}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
                Delete
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <LoadMoreButton query={query} label="Load More Wants" />
      <WantFormDialog open={adding} onOpenChange={setAdding} />
      <WantFormDialog
        open={editing !== undefined}
        onOpenChange={(open) => !open && setEditing(undefined)}
        want={editing}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => !open && setDeleting(undefined)}
        title="Delete this want?"
        description={`"${deleting?.title ?? ''}" will be removed from your want list.`}
        confirmLabel="Delete Want"
        pending={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              toast({ title: 'Want Deleted' });
              setDeleting(undefined);
            },
            onError: () =>
              toast({
                title: 'Error',
                description: 'Failed to delete want. Please try again.',
                variant: 'destructive',
              }),
          })
        }
      />
    </section>
  );
}
