import type { Barter, BarterItem } from '../../../common/schemas/barters';
import { formatDate } from '../../i18n/format';

/** What each side gives, from the viewer's seat: the sender gives the offered items. */
export function sidesOf(barter: Pick<Barter, 'role' | 'offeredItems' | 'requestedItems'>): {
  mine: BarterItem[];
  theirs: BarterItem[];
} {
  return barter.role === 'sender'
    ? { mine: barter.offeredItems, theirs: barter.requestedItems }
    : { mine: barter.requestedItems, theirs: barter.offeredItems };
}

/** Titles of a side, as one line ("Bike, Guitar lessons"). */
export function titlesOf(items: readonly BarterItem[]): string {
  return items.map((item) => item.title).join(', ');
}

/** A date and time as the barter screens show it ("Mar 3, 2026, 4:05 PM"), in the active language. */
export function formatDateTime(iso: string): string {
  return formatDate(iso, { dateStyle: 'medium', timeStyle: 'short' });
}
