export { freeToGive, type ItemLockStrength, type ItemStateRow, lockItemsInIdOrder } from './item-locks';
export { type ItemsRoutesOptions, itemsRoutes } from './items-routes';
export { HELD_MESSAGE, removeUnusedPhotos } from './items-service';
export { itemDocument, listedItem } from './items-sql';
export { STALE_KINDS, staleListingsJob, sweepStaleListings } from './stale-listings';
