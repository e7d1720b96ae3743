import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useState } from 'react';
import { SAVED_SEARCH_NAME_MAX_LENGTH } from '#common/alert-rules.ts';
import type { FeedName } from '#common/feed-names.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatRadius } from '#web/i18n/format.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useSaveSearch } from '#web/lib/saved-searches.ts';

export interface SaveSearchDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  feed: FeedName;
  q: string;
  radius: number;
  /** The condition filter (goods in it or better); left out: any item. */
  condition?: ItemCondition | undefined;
}

/**
 * The Save search dialog (issue 31, ADR 084, 089): a name for the feed's filter as it stands (the
 * feed, the search text or none, the distance, the condition or none); the name starts as the search
 * text, or without one as "Everything within 5 miles". Loaded on the first click of Save search
 * (save-search-button.tsx), so the feed's first screen carries none of it.
 */
export function SaveSearchDialog({ open, onOpenChange, feed, q, radius, condition }: SaveSearchDialogProps) {
  const { t } = useLingui();
  const suggested = q || t`Everything within ${formatRadius(radius)}`;
  const [name, setName] = useState(suggested);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveSearch();

  useEffect(() => {
    if (!open) return;
    setName(suggested.slice(0, SAVED_SEARCH_NAME_MAX_LENGTH));
    setError(null);
  }, [open, suggested]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t`Name is required`);
      return;
    }
    save.mutate(
      { name: trimmed, feed, q: q || null, radius, ...(condition ? { condition } : {}) },
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
