import type { FeedItem } from '../../../common/schemas/feed';

/** Owner as the card shows them: first name plus last initial (spec section 2). */
export function ownerName(user: FeedItem['user']): string {
  return [user.firstName ?? 'Neighbor', user.lastName].filter(Boolean).join(' ');
}

/** "1.2 mi" from the server's great-circle distance; null when either side has no location. */
export function formatDistance(miles: number | null): string | null {
  if (miles === null) return null;
  return `${miles.toFixed(1)} mi`;
}

const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 2,
});

/** An estimated value in dollars; null when unknown. */
export function formatValue(value: number | null): string | null {
  return value === null ? null : money.format(value);
}
