import { Trans } from '@lingui/react/macro';
import { ArrowLeftRight, Check } from 'lucide-react';
import { Link } from 'wouter';
import type { OpenBarter } from '#common/schemas/feed.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { paths } from '#web/lib/paths.ts';

/**
 * Says on a card or an item's detail that the viewer already has a pending barter on the item
 * (issue 28): "You proposed", or "Proposed to you" when the owner proposed it to them.
 */
export function OpenBarterBadge({ barter }: { barter: OpenBarter }) {
  return (
    <Badge tone="brand">
      <Check className="h-3 w-3" aria-hidden="true" />
      {barter.proposedByYou ? <Trans>You proposed</Trans> : <Trans>Proposed to you</Trans>}
    </Badge>
  );
}

/** In place of Propose Barter when a barter on the item is open: it leads there, not to a second one. */
export function ViewBarterLink({
  barter,
  title,
  onNavigate,
}: {
  barter: OpenBarter;
  /** The item's title, for screen readers ("View Barter for Cordless drill"). */
  title: string;
  onNavigate?: () => void;
}) {
  return (
    <Button asChild size="sm" variant="secondary">
      <Link href={paths.barter(barter.id)} onClick={onNavigate}>
        <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
        <Trans>
          View Barter <span className="sr-only">for {title}</span>
        </Trans>
      </Link>
    </Button>
  );
}
