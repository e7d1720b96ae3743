import { Trans, useLingui } from '@lingui/react/macro';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Want } from '#common/schemas/listings.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatMoney } from '#web/i18n/format.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { useDeleteWant, useKeepWantOpen, useMyWants, useOpenWantQuestions } from '../api/wants';
import { WantFormDialog } from './want-form-dialog';
import { WantRowQuestions } from './want-questions';

/**
 * The Want List tab (spec section 2): count, Add Want, and each want with edit and delete. Wants
 * come a page at a time (Load More); the count is the server's total, not what is loaded. Wants a
 * completed trade fulfilled (issue 30) are listed apart under "Fulfilled", each with "I want more of
 * these", which makes it active (and matching) again. An active want a completed barter may have met
 * carries "Did this fill your want?" on its row, as on the barter's page.
 */
export function WantListTab() {
  const { t } = useLingui();
  const query = useMyWants();
  const { isLoading, isError } = query;
  const { rows: wants, total } = flattenOwnList(query.data?.pages);
  // A want a completed trade met (issue 30) leaves the active part for "Fulfilled".
  const active = wants.filter((want) => want.fulfilledAt === null);
  const fulfilled = wants.filter((want) => want.fulfilledAt !== null);
  const keepOpen = useKeepWantOpen();
  // Open "Did this fill your want?" questions (issue 30), shown on their want's row.
  const questions = useOpenWantQuestions().data ?? [];
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
        {active.map((want) => {
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
              <WantRowQuestions questions={questions.filter((question) => question.wantId === want.id)} />
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
      {fulfilled.length > 0 ? (
        <section aria-labelledby="fulfilled-wants-heading" className="grid gap-3">
          <h3 id="fulfilled-wants-heading" className="text-base font-semibold">
            <Trans>Fulfilled</Trans>
          </h3>
          <ul className="grid gap-3 sm:grid-cols-2">
            {fulfilled.map((want) => {
              const title = want.title;
              return (
                <li key={want.id} className="grid gap-1 rounded-xl border border-slate-200 bg-slate-50 p-3">
                  <h4 className="font-semibold">{want.title}</h4>
                  <div className="flex flex-wrap gap-1">
                    <Badge tone="brand">{translateKnown(want.category)}</Badge>
                    <Badge tone="success">
                      <Trans>Fulfilled</Trans>
                    </Badge>
                  </div>
                  <div className="mt-1 flex flex-wrap gap-1">
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={keepOpen.isPending}
                      onClick={() =>
                        keepOpen.mutate(want.id, {
                          onError: (error) =>
                            toast({
                              title: t`Error`,
                              description: serverMessageOf(
                                error,
                                t`Failed to update want. Please try again.`,
                              ),
                              variant: 'destructive',
                            }),
                        })
                      }
                      aria-label={t`I want more of these: ${title}`}
                    >
                      <Trans>I want more of these</Trans>
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
        </section>
      ) : null}
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
