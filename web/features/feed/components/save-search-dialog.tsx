import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useState } from 'react';
import { SAVED_SEARCH_NAME_MAX_LENGTH } from '#common/alert-rules.ts';
import type { FeedName } from '#common/feed-names.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useSaveSearch } from '#web/lib/saved-searches.ts';

export interface SaveSearchDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  feed: FeedName;
  q: string;
  radius: number;
}

/**
 * The Save search dialog (issue 31, ADR 084): a name for the feed's filter as it stands (the feed,
 * the search text, the distance); the name starts as the search text. Loaded on the first click of
 * Save search (save-search-button.tsx), so the feed's first screen carries none of it.
 */
export function SaveSearchDialog({ open, onOpenChange, feed, q, radius }: SaveSearchDialogProps) {
  const { t } = useLingui();
  const [name, setName] = useState(q);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveSearch();

  useEffect(() => {
    if (!open) return;
    setName(q.slice(0, SAVED_SEARCH_NAME_MAX_LENGTH));
    setError(null);
  }, [open, q]);

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
          onOpenChange(false);
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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t`Save this search`} description={t`Get an alert when a new listing matches it.`}>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <FormField label={t`Name`} error={error ?? undefined}>
            <Input
              value={name}
              maxLength={SAVED_SEARCH_NAME_MAX_LENGTH}
              onChange={(event) => setName(event.target.value)}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => onOpenChange(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? t`Saving...` : t`Save search`}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
