import type { ItemCondition, ItemPhotoUrls } from '#common/schemas/listings.ts';
import type { TraderSummary } from '../trades';

/** The rows and rankings the feed files share (cards, rankings, the cache). */

/** Why an item is on Barter Match, with the components its score was computed from. */
export interface MatchRow {
  score: number;
  wantId: number;
  wantTitle: string;
  mutual: boolean;
  theirWantTitle: string | null;
  sameCategory: boolean;
  /** Whole percent. */
  textPercent: number;
  maxValue: number | null;
  /** The want's words the item holds, as typed in the want (match-reason.ts, ADR 089). */
  words?: string[];
  /** The item's title words related to a want word, within the want's category. */
  related?: string[];
}

/** One item with everything a card shows, as the database returns it (no e-mail, no coordinates). */
export interface FeedRow {
  id: number;
  title: string;
  description: string;
  category: string;
  isService: boolean;
  imageUrl: string | null;
  thumbnailUrl: string | null;
  /** A good's condition (ADR 082); null for services and goods listed without one. */
  condition: ItemCondition | null;
  /** An item's detail only: all its photos, the cover first (ADR 082). */
  photos?: ItemPhotoUrls[];
  estimatedValue: number | null;
  createdAt: string;
  isActive: boolean;
  userId: string;
  firstName: string | null;
  /** First character of the last name only. */
  lastInitial: string | null;
  /** `users.display_name`: the name told apart from near namesakes (ADR 058). */
  shownName: string | null;
  profileImageUrl: string | null;
  /**
   * From the viewer's own point to the owner's public point (server/geo/README.md), rounded to 0.1
   * mile; null when the viewer or the owner has no location.
   */
  distanceMiles: number | null;
  /**
   * Where a feed's map places the card (ADR 086): the item's copy of its owner's public point,
   * rounded to 0.01 degree (server/geo/approximate-area.ts); null when the owner has no location.
   * Kept with the card between pages; a card as sent (feed-presenter.ts) leaves it out.
   */
  mapPoint: { latitude: number; longitude: number } | null;
  isSaved: boolean;
  lookingFor: string[];
  match: MatchRow | null;
  /** The owner's rating summary ('New trader' when they have none). */
  owner: TraderSummary;
}

/** A key's direction in a feed order. */
export type Direction = 'ASC' | 'DESC' | 'DESC NULLS LAST';

/** The order of a card page: output columns of its page subquery, each with its direction. */
export type CardOrder = Array<[string, Direction]>;

/** The counters of listing_changes (ADR 012) as one statement reads them. */
export interface Versions {
  /** Moves on with every change that can reorder a feed. */
  listing: number;
  /** Moves on with every change that can alter a feed card. */
  card: number;
}

/** Feed cards, in no particular order, with the counters read in the same statement. */
export interface CardRows {
  cards: FeedRow[];
  versions: Versions;
}

/** One ranked item: its id, the viewer's distance to it, and on Barter Match its match. */
export interface RankedItem {
  id: number;
  distanceMiles: number | null;
  match: MatchRow | null;
}

export interface Ranking {
  items: RankedItem[];
  /** True when `items` is the whole feed; otherwise pages past its end must be ranked again. */
  complete: boolean;
  /** The listing version the ranking was made at. */
  version: number;
}
