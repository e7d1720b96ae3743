import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { PackageOpen } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { FeedName } from '#common/schemas/feed.ts';
import { WantFormDialog } from '#web/components/feature-slots.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { useGettingStarted } from '#web/lib/getting-started.ts';
import { paths } from '#web/lib/paths.ts';

/** The spec's empty-state headings (section 2). */
export const EMPTY_TEXT: Record<FeedName, MessageDescriptor> = {
  'barter-match': msg`No matches found`,
  'random-barter': msg`No random items available`,
  everything: msg`No items in your area`,
};

/**
 * A feed with nothing to show (issue 17): the spec's heading, then what would fill it and the one
 * button that does that next: a location first (without one there is nothing "nearby"); for Barter
 * Match a want; for the others an item to offer ("Add Your First Item" until the member has one).
 */
export function EmptyFeed({ feed, q, onAddItem }: { feed: FeedName; q: string; onAddItem: () => void }) {
  const { t } = useLingui();
  const steps = useGettingStarted().data;
  const [wantOpen, setWantOpen] = useState(false);
  let text: string;
  let action: React.ReactNode = null;
  if (q) {
    text = t`Try other words, or a larger distance.`;
  } else if (steps && !steps.area) {
    text = t`Set your location: the feeds show neighbors' items within your distance of it.`;
    action = (
      <Button asChild>
        <Link href={paths.profile}>
          <Trans>Set Location</Trans>
        </Link>
      </Button>
    );
  } else if (feed === 'barter-match') {
    text = steps?.want
      ? t`No neighbor within your distance offers what you want yet. Try a larger distance, or add more wants.`
      : t`Barter Match shows neighbors' items that match your wants. Add what you are looking for to your Want List.`;
    action = (
      <Button onClick={() => setWantOpen(true)}>{steps?.want ? t`Add Another Want` : t`Add a Want`}</Button>
    );
  } else {
    text = steps?.item
      ? t`Try a larger distance, or offer something else nearby.`
      : t`Try a larger distance, or be the first to offer something nearby.`;
    action = <Button onClick={onAddItem}>{steps?.item ? t`Add an Item` : t`Add Your First Item`}</Button>;
  }
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-10 text-center">
      <PackageOpen className="h-10 w-10 text-slate-400" aria-hidden="true" />
      <h2 className="text-lg font-semibold">{q ? t`No results for “${q}”` : t(EMPTY_TEXT[feed])}</h2>
      <p className="max-w-md text-sm text-slate-600">{text}</p>
      {action}
      <WantFormDialog open={wantOpen} onOpenChange={setWantOpen} />
    </div>
  );
}
