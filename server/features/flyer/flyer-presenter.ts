import type { FlyerListing } from '#common/schemas/flyer.ts';
import type { FlyerListingRow } from './flyer-repository';

/** A listing as a printed flyer shows it: a whitelist, first name only (trimmed; blank reads as none). */
export function presentFlyerListing(row: FlyerListingRow): FlyerListing {
  const firstName = row.firstName?.trim() ?? '';
  return {
    title: row.title,
    category: row.category,
    isService: row.isService,
    firstName: firstName === '' ? null : firstName,
  };
}
