import { Trans } from '@lingui/react/macro';
import { BellPlus } from 'lucide-react';
import { useState } from 'react';
import type { FeedName } from '#common/feed-names.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { lazyDialog } from '#web/lib/lazy-dialog.tsx';
import type { SaveSearchDialogProps } from './save-search-dialog';

/** The dialog's code loads on the first click (ADR 033): the feed's first screen carries the button alone. */
const SaveSearchDialog = lazyDialog<SaveSearchDialogProps>(() =>
  withMessages(() => import('./save-search-dialog')).then((module) => module.SaveSearchDialog),
);

/**
 * Save search (issue 31, ADR 084, 089): the feed's filter as it stands (the feed, the search text or
 * none, the distance, the condition or none) under a name the member chooses; new listings that
 * match it alert them, nearest members first. Saved searches are listed, and removed, in the Account tab.
 */
export function SaveSearchButton({
  feed,
  q,
  radius,
  condition,
}: {
  feed: FeedName;
  q: string;
  radius: number;
  condition?: ItemCondition | undefined;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        <BellPlus className="h-4 w-4" aria-hidden="true" />
        <Trans>Save search</Trans>
      </Button>
      <SaveSearchDialog
        open={open}
        onOpenChange={setOpen}
        feed={feed}
        q={q}
        radius={radius}
        condition={condition}
      />
    </>
  );
}
