import type { Barter, BarterItem } from '#common/schemas/barters.ts';

/** The barter screens' date and time; it lives in web/i18n/format.ts, as trade circles show it too. */
export { formatDateTime } from '#web/i18n/format.ts';

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
