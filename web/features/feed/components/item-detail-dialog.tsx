import { Trans } from '@lingui/react/macro';
import { ExternalLink } from 'lucide-react';
import { Link } from 'wouter';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { paths } from '#web/lib/paths.ts';
import { useItemDetail } from '../api/item-detail';
import { ItemDetailContent, MemberItemActions } from './item-detail-content';

/**
 * An item's quick look: its detail (item-detail-content.tsx, shared with the item's page) and a link
 * to that page, to open, keep or share (issue 31).
 */
export function ItemDetailDialog({
  itemId,
  title,
  onClose,
}: {
  itemId: number | null;
  /** Shown while the detail loads. */
  title: string;
  onClose: () => void;
}) {
  const { data: item, isLoading, isError } = useItemDetail(itemId);
  const itemTitle = item?.title ?? title;
  return (
    <Dialog open={itemId !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={itemTitle} className="max-w-2xl">
        {isLoading ? (
          <p className="text-slate-600">
            <Trans>Loading...</Trans>
          </p>
        ) : null}
        {isError ? (
          <p className="text-red-700">
            <Trans>This item could not be loaded. It may have been removed.</Trans>
          </p>
        ) : null}
        {item ? (
          <ItemDetailContent
            item={item}
            signedIn
            onNavigate={onClose}
            actions={
              <>
                <p>
                  <Link
                    href={paths.item(item.id)}
                    onClick={onClose}
                    className="inline-flex items-center gap-1 rounded-sm font-semibold text-brand-800 underline underline-offset-2"
                  >
                    <ExternalLink className="h-4 w-4" aria-hidden="true" />
                    <Trans>
                      Open the item's page <span className="sr-only">of {itemTitle}</span>
                    </Trans>
                  </Link>
                </p>
                <MemberItemActions item={item} onNavigate={onClose} />
              </>
            }
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
