import { Trans, useLingui } from '@lingui/react/macro';
import { BellPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { SAVED_SEARCH_NAME_MAX_LENGTH } from '#common/alert-rules.ts';
import type { FeedName } from '#common/feed-names.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useSaveSearch } from '#web/lib/saved-searches.ts';

/**
 * Save search (issue 31, ADR 084): the feed's filter as it stands (the feed, the search text, the
 * distance) under a name the member chooses; new listings that match it alert them, nearest members
 * first. Saved searches are listed, and removed, in the Account tab.
 */
export function SaveSearchButton({ feed, q, radius }: { feed: FeedName; q: string; radius: number }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(q);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveSearch();

  const openDialog = () => {
    setName(q.slice(0, SAVED_SEARCH_NAME_MAX_LENGTH));
    setError(null);
    setOpen(true);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t`Name is required`);
      return;
    }
    save.mutate(
      { name: trimmed, feed, q: q || null, radius },
      {
        onSuccess: () => {
          setOpen(false);
          toast({
            title: t`Search saved`,
            description: t`We will tell you when a new listing matches it. Your saved searches are in the Account tab.`,
          });
        },
        onError: (failure) =>
          setError(serverMessageOf(failure, t`Could not save the search. Please try again.`)),
      },
    );
  };

  return (
    <>
      <Button variant="ghost" size="sm" onClick={openDialog}>
        <BellPlus className="h-4 w-4" aria-hidden="true" />
        <Trans>Save search</Trans>
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title={t`Save this search`}
          description={t`Get an alert when a new listing matches it.`}
        >
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <FormField label={t`Name`} error={error ?? undefined}>
              <Input
                value={name}
                maxLength={SAVED_SEARCH_NAME_MAX_LENGTH}
                onChange={(event) => setName(event.target.value)}
              />
            </FormField>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? t`Saving...` : t`Save search`}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
