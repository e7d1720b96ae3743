/** The member acting, or null when nobody is signed in. */
export type Actor = { id: string } | null;

/** An item or a want: anything a member lists and owns. */
export interface OwnedListing {
  userId: string;
}

/**
 * Who may do what with an item or a want: only the owner may change it (including deactivating and
 * reactivating it) or delete it. Reading one's own lists is scoped by owner in the query; public
 * reading of active items belongs to the feeds, which have their own rules.
 */
export const listingPolicy = {
  update: (actor: Actor, listing: OwnedListing): boolean => isOwner(actor, listing),
  delete: (actor: Actor, listing: OwnedListing): boolean => isOwner(actor, listing),
} as const;

export type ListingAction = keyof typeof listingPolicy;

function isOwner(actor: Actor, listing: OwnedListing): boolean {
  return actor !== null && actor.id === listing.userId;
}
