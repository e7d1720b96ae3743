import { plural, t } from '@lingui/core/macro';
import type { ReputationStats } from '#common/trader-reputation.ts';
import { i18n } from '../i18n/i18n';

/**
 * The web's own rating line (common/trader-reputation.ts writes the server's English one), in the
 * active language: '5.0 (12 trades)', 'New trader', 'Not rated yet (2 trades)'. Call at render time.
 */
export function traderRating({ totalTrades, rating }: ReputationStats): string {
  if (totalTrades <= 0) return t`New trader`;
  if (rating === null) {
    return plural(totalTrades, { one: 'Not rated yet (# trade)', other: 'Not rated yet (# trades)' });
  }
  const average = i18n.number(rating, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return plural(totalTrades, { one: `${average} (# trade)`, other: `${average} (# trades)` });
}
