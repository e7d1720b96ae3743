import type { Item } from '../../../../common/schemas/listings';
import { Badge } from '../../../components/ui/badge';

/** Told after saving an item whose photo waits for a moderator (ADR 027). */
export const HELD_NOTE = 'A moderator will check its photo before neighbors can see it.';

const LABELS: Record<NonNullable<Item['moderation']>, string> = {
  held: 'Photo waiting for a moderator',
  removed: 'Removed by a moderator',
  suspended: 'Hidden while your account is suspended',
};

/** Why moderation hides one of the member's own items (ADR 025, 027); nothing when it does not. */
export function ModerationBadge({ moderation }: Pick<Item, 'moderation'>) {
  return moderation ? <Badge tone="accent">{LABELS[moderation]}</Badge> : null;
}
