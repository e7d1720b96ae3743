import { Trans } from '@lingui/react/macro';
import { ArrowLeftRight } from 'lucide-react';
import { useState } from 'react';
import type { FeedItem } from '#common/schemas/feed.ts';
import { Button } from '#web/components/ui/button.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { lazyTriggeredDialog } from '#web/lib/lazy-dialog.tsx';
import { ownerName } from '#web/lib/owner-name.ts';

// The proposal form (react-hook-form, the barter schemas) loads on the first click, not with the feed
// (ADR 033).
const ProposalDialog = lazyTriggeredDialog(() =>
  withMessages(() => import('./proposal-dialog')).then((module) => module.ProposalDialog),
);

/** Propose Barter on a card or an item's detail: opens the proposal dialog with this item asked for. */
export function ProposeBarterButton({
  item,
  offerItemId,
  className,
}: {
  item: Pick<FeedItem, 'id' | 'title' | 'category' | 'isService' | 'thumbnailUrl' | 'user'>;
  /** The viewer's item the owner wants ("They want your bike"): ticked on opening (issue 28). */
  offerItemId?: number;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ProposalDialog
      open={open}
      onOpenChange={setOpen}
      target={{
        mode: 'propose',
        item: {
          id: item.id,
          title: item.title,
          category: item.category,
          isService: item.isService,
          thumbnailUrl: item.thumbnailUrl,
        },
        owner: { id: item.user.id, displayName: ownerName(item.user) },
        offerItemId,
      }}
      trigger={
        <Button
          size="sm"
          className={className}
          // The card around it does not open the item's detail as well.
          onClick={(event) => event.stopPropagation()}
        >
          <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
          <Trans>Propose Barter</Trans>
        </Button>
      }
    />
  );
}
