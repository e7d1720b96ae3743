/**
 * The Barter Match score (docs/matching.md, ADR 085): a transparent sum of points, capped at 100.
 *
 *   relevance    up to 45: 10 when the want's category is the item's, plus up to 35 for how well
 *                the want's words match the item (text similarity in percent, textPercentOf):
 *                  100 the item's title is the want (the same words, in any order or number),
 *                   70 all of the want's words in the title, and more (a brand, a size; or an
 *                      accessory: 'Guitar stand' for 'guitar', which words alone cannot tell),
 *                   35 the title a near spelling of the want's, or, within the want's category,
 *                      all of its words in the title counting related terms ('bicycle' for 'bike'),
 *                   30 all of them in the description or category,
 *                   up to 24 the share of the want's words in the title (25 x share, rounded
 *                      down; related terms count within the want's category): 'mountain bike'
 *                      and a kids' bike share 'bike', so 12;
 *                points = floor(similarity% x 35 / 100);
 *   reciprocity  43 when the owner has an active want that one of the viewer's active items
 *                matches (the double coincidence of wants; the largest single component);
 *   nearness     up to 8: floor((50 mi - distance) x 8 / 50 mi), 0 at 50 miles or more and when the
 *                distance is unknown. The scale is fixed (not the chosen radius), so an item's score
 *                does not change when the member changes the distance filter;
 *   value fit    4 when the item's estimated value is at most the want's maxValue, 2 when it is
 *                within the 10% tolerance above it or either value is unknown; beyond the tolerance
 *                the want does not match at all.
 *
 * The levels are far enough apart that distance and value cannot reorder them within the want's
 * category, reciprocity alike: a title that is the want earns at least 47 points (35 + 10 + 0 + 2),
 * every other title at most 46 (24 + 10 + 8 + 4); a title holding all the want's words at least 36,
 * anything less at most 34 (12 + 10 + 8 + 4). A title that is the want outside the want's category
 * (37 at least) still ranks above every category guess and share of words (30 at most). Reciprocity
 * (43) is worth more than any of these gaps: an owner who wants what the viewer offers comes first.
 *
 * Everything is whole numbers (similarity in percent, distance in tenths of a mile, money in cents)
 * so the SQL in match-sql.ts, which computes the same sum for ordering, gives exactly the same number.
 * The feed query computes the score in SQL (it must, to sort and page by it); feed tests check that
 * every score it returns equals matchScore() of the components it returns.
 */

export const MATCH_POINTS = {
  sameCategory: 10,
  text: 35,
  mutual: 43,
  nearness: 8,
  valueWithin: 4,
  valueUnsure: 2,
} as const;

/** Distance at which nearness reaches 0 points; the largest distance option. */
export const NEARNESS_SCALE_MILES = 50;
/** A want's maxValue may be exceeded by this fraction (10%) and still match. */
export const VALUE_TOLERANCE_PERCENT = 10;

/** Text similarity levels, in percent (see the module comment). */
export const TEXT_PERCENT = {
  titleIsWant: 100,
  allInTitle: 70,
  nearSpelling: 35,
  relatedInTitle: 35,
  elsewhere: 30,
  /** The share of the want's words in the title, times this (rounded down). */
  shareInTitle: 25,
} as const;

/**
 * A want's words match an item without its category from this similarity on: all of them in the
 * item (elsewhere or better) or a near spelling of the title. Related terms count only within the
 * want's category, and a share of the words stays below it, so both need the category.
 */
export const TEXT_MATCH_THRESHOLD = TEXT_PERCENT.elsewhere / 100;

/** What the text search found of a want's words in an item (want words as full-text lexemes). */
export interface TextFound {
  /** How many distinct words the want's title has (stop words left out). */
  words: number;
  /** How many of them the item's title has. */
  inTitle: number;
  /** How many of them the item's title has, itself or through a related term (match_related_terms). */
  relatedInTitle: number;
  /** The item's title has no word beyond the want's. */
  titleWithinWant: boolean;
  /** All of the want's words are somewhere in the item (title, description, category). */
  inText: boolean;
  /** The item's title is a near spelling of the want's (pg_trgm word similarity). */
  nearSpelling: boolean;
}

/** The text similarity of a want to an item in whole percent (the module comment's levels). */
export function textPercentOf(found: TextFound, sameCategory: boolean): number {
  const { words } = found;
  if (words > 0 && found.inTitle === words) {
    return found.titleWithinWant ? TEXT_PERCENT.titleIsWant : TEXT_PERCENT.allInTitle;
  }
  const covered = sameCategory ? found.relatedInTitle : found.inTitle;
  return Math.max(
    found.nearSpelling ? TEXT_PERCENT.nearSpelling : 0,
    words > 0 && covered === words ? TEXT_PERCENT.relatedInTitle : 0,
    found.inText ? TEXT_PERCENT.elsewhere : 0,
    words > 0 ? Math.floor((TEXT_PERCENT.shareInTitle * covered) / words) : 0,
  );
}

/** The text similarity (0 to 1) of a want to an item from what the search found (textPercentOf). */
export function textSimilarityOf(found: TextFound, sameCategory: boolean): number {
  return textPercentOf(found, sameCategory) / 100;
}

export type ValueFit = 'within' | 'tolerance' | 'unknown' | 'over';

/** How an item's estimated value compares with a want's maxValue, in whole cents. */
export function valueFit(itemValue: number | null, maxValue: number | null): ValueFit {
  if (itemValue === null || maxValue === null) return 'unknown';
  const item = Math.round(itemValue * 100);
  const max = Math.round(maxValue * 100);
  if (item <= max) return 'within';
  if (item * 100 <= max * (100 + VALUE_TOLERANCE_PERCENT)) return 'tolerance';
  return 'over';
}

export interface MatchComponents {
  /** The want's category equals the item's. */
  sameCategory: boolean;
  /** 0 to 1, see textPercentOf (two decimals at most). */
  textSimilarity: number;
  /** The owner wants something the viewer offers. */
  mutual: boolean;
  /** Miles between the two members (0.1 precision), or null when either has no location. */
  distanceMiles: number | null;
  itemValue: number | null;
  maxValue: number | null;
}

export interface ScoreParts {
  relevance: number;
  reciprocity: number;
  nearness: number;
  value: number;
  total: number;
}

/** Points for closeness: 8 at 0 miles, 0 at NEARNESS_SCALE_MILES or beyond or when unknown. */
export function nearnessPoints(distanceMiles: number | null): number {
  if (distanceMiles === null) return 0;
  const tenths = Math.max(0, Math.round(distanceMiles * 10));
  const scaleTenths = NEARNESS_SCALE_MILES * 10;
  return Math.floor((Math.max(0, scaleTenths - tenths) * MATCH_POINTS.nearness) / scaleTenths);
}

/** Points for how similar the want's words are to the item's (0 to 35). */
export function textPoints(textSimilarity: number): number {
  const percent = Math.min(100, Math.max(0, Math.round(textSimilarity * 100)));
  return Math.floor((percent * MATCH_POINTS.text) / 100);
}

/** True when the want matches the item at all (category or words, and not over its maxValue). */
export function isMatch(c: MatchComponents): boolean {
  if (valueFit(c.itemValue, c.maxValue) === 'over') return false;
  return c.sameCategory || c.textSimilarity >= TEXT_MATCH_THRESHOLD;
}

/** The score and its parts, or null when the want does not match the item. */
export function scoreParts(c: MatchComponents): ScoreParts | null {
  if (!isMatch(c)) return null;
  const relevance = (c.sameCategory ? MATCH_POINTS.sameCategory : 0) + textPoints(c.textSimilarity);
  const reciprocity = c.mutual ? MATCH_POINTS.mutual : 0;
  const nearness = nearnessPoints(c.distanceMiles);
  const value =
    valueFit(c.itemValue, c.maxValue) === 'within' ? MATCH_POINTS.valueWithin : MATCH_POINTS.valueUnsure;
  const total = Math.min(100, relevance + reciprocity + nearness + value);
  return { relevance, reciprocity, nearness, value, total };
}

/** The 0 to 100 match score, or null when the want does not match the item. */
export function matchScore(c: MatchComponents): number | null {
  return scoreParts(c)?.total ?? null;
}
