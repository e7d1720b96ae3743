import type { ItemAction } from '#common/schemas/listings.ts';

/** The member acting, or null when nobody is signed in. */
export type Actor = { id: string } | null;

/** An item or a want: anything a member lists and owns. */
export interface OwnedListing {
  userId: string;
}

/** What decides what may be done with an item beyond owning it. */
export interface ItemState extends OwnedListing {
  isActive: boolean;
  /** Hidden by moderation (ADR 025, 027); the owner cannot show it. */
  moderation: string | null;
  /** The accepted barter that holds it (issue 13); null when none does. */
  reservedByRequestId: number | null;
  /** When it was traded in a completed barter (issue 30): never shown again nor edited. */
  tradedAt?: Date | null;
}

/**
 * Who may do what with an item or a want: only the owner may change it (including deactivating and
 * reactivating it) or delete it. Reading one's own lists is scoped by owner in the query; public
 * reading of active items belongs to the feeds, which have their own rules. A non-owner gets 404.
 */
export const listingPolicy = {
  update: (actor: Actor, listing: OwnedListing): boolean => isOwner(actor, listing),
  delete: (actor: Actor, listing: OwnedListing): boolean => isOwner(actor, listing),
} as const;

export type ListingAction = keyof typeof listingPolicy;

/**
 * What the owner may do with an item now (the web shows exactly these buttons). An item an accepted
 * barter holds is what the other member agreed to take: nothing of it changes (fields, photo,
 * shown or hidden) and it cannot be deleted until the barter is cancelled or completed (409). A
 * traded item went to another member (issue 30): it is never shown again nor edited, only deleted
 * from the owner's list (the trade history keeps what it was).
 */
export const itemPolicy: Record<ItemAction, (actor: Actor, item: ItemState) => boolean> = {
  edit: (actor, item) => isOwner(actor, item) && item.reservedByRequestId === null && !isTraded(item),
  hide: (actor, item) =>
    isOwner(actor, item) && item.reservedByRequestId === null && item.isActive && item.moderation === null,
  show: (actor, item) =>
    isOwner(actor, item) &&
    item.reservedByRequestId === null &&
    !item.isActive &&
    item.moderation === null &&
    !isTraded(item),
  delete: (actor, item) => isOwner(actor, item) && item.reservedByRequestId === null,
};

/** The item actions the actor may take, in a stable order (`allowedActions` of an item). */
export function itemAllowedActions(actor: Actor, item: ItemState): ItemAction[] {
  return (Object.keys(itemPolicy) as ItemAction[]).filter((action) => itemPolicy[action](actor, item));
}

const isTraded = (item: ItemState): boolean => item.tradedAt !== undefined && item.tradedAt !== null;

function isOwner(actor: Actor, listing: OwnedListing): boolean {
  return actor !== null && actor.id === listing.userId;
}
