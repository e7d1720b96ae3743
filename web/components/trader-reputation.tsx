import { Trans } from '@lingui/react/macro';
import { BadgeCheck, Star } from 'lucide-react';
import type { ReputationStats } from '#common/trader-reputation.ts';
import { traderRating } from '../lib/trader-rating';
import { Badge } from './ui/badge';

/**
 * A member's rating line ('4.8 (12 trades)', 'New trader') and, when earned, the Trusted Trader
 * badge: the profile header and the member page show them alike.
 */
export function TraderReputation({ stats, trusted }: { stats: ReputationStats; trusted: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <span className="flex items-center gap-1">
        <Star className="h-4 w-4 fill-amber-400 text-amber-500" aria-hidden="true" />
        {traderRating(stats)}
      </span>
      {trusted ? (
        <Badge tone="success">
          <BadgeCheck className="h-3.5 w-3.5" aria-hidden="true" />
          <Trans>Trusted Trader</Trans>
        </Badge>
      ) : null}
    </div>
  );
}
