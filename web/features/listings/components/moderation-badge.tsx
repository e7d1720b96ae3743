import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { Item } from '#common/schemas/listings.ts';
import { Badge } from '#web/components/ui/badge.tsx';

/** Told after saving an item whose photo waits for a moderator (ADR 027). */
export const HELD_NOTE = msg`A moderator will check its photo before neighbors can see it.`;

const LABELS: Record<NonNullable<Item['moderation']>, MessageDescriptor> = {
  held: msg`Photo waiting for a moderator`,
  removed: msg`Removed by a moderator`,
  suspended: msg`Hidden while your account is suspended`,
};

/** Why moderation hides one of the member's own items (ADR 025, 027); nothing when it does not. */
export function ModerationBadge({ moderation }: Pick<Item, 'moderation'>) {
  const { t } = useLingui();
  return moderation ? <Badge tone="accent">{t(LABELS[moderation])}</Badge> : null;
}
