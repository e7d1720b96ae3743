import { t } from '@lingui/core/macro';
import type { FeedItem } from '#common/schemas/feed.ts';

/** Owner as the card shows them: first name plus last initial (spec section 2). */
export function ownerName(user: Pick<FeedItem['user'], 'firstName' | 'lastName'>): string {
  return [user.firstName ?? t`Neighbor`, user.lastName].filter(Boolean).join(' ');
}
