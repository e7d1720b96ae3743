/**
 * The Barter Match score (docs/matching.md): a transparent sum of points, capped at 100.
 *
 *   relevance    up to 40: 20 when the want's category is the item's, plus up to 20 for how well
 *                the want's words match the item (text similarity: 1 all of them in the title,
 *                0.8 all of them in the description or category, 0.6 the title a near spelling
 *                of them, 0 otherwise; points = floor(similarity% / 5));
 *   reciprocity  30 when the owner has an active want that one of the viewer's active items
 *                matches (the double coincidence of wants; the largest single component);
 *   nearness     up to 20: floor((50 mi - distance) / 2.5 mi), 0 at 50 miles or more and when the
 *                distance is unknown. The scale is fixed (not the chosen radius), so an item's score
 *                does not change when the member changes the distance filter;
 *   value fit    10 when the item's estimated value is at most the want's maxValue, 5 when it is
 *                within the 10% tolerance above it or either value is unknown; beyond the tolerance
 *                the want does not match at all.
 *
 * Everything is whole numbers (similarity in percent, distance in tenths of a mile, money in cents)
 * so the SQL in match-sql.ts, which computes the same sum for ordering, gives exactly the same number.
 * The feed query computes the score in SQL (it must, to sort and page by it); feed tests check that
 * every score it returns equals matchScore() of the components it returns.
 */

export const MATCH_POINTS = {
  sameCategory: 20,
  text: 20,
  mutual: 30,
  nearness: 20,
  valueWithin: 10,
  valueUnsure: 5,
} as const;

/** Distance at which nearness reaches 0 points; the largest distance option. */
export const NEARNESS_SCALE_MILES = 50;
/** A want's maxValue may be exceeded by this fraction (10%) and still match. */
export const VALUE_TOLERANCE_PERCENT = 10;
/**
 * Text similarity levels. A want's words match an item without its category from
 * TEXT_MATCH_THRESHOLD on: a near spelling of the title (pg_trgm word similarity at least 0.6, the
 * extension's default threshold) or better.
 */
export const TEXT_IN_TITLE = 1;
export const TEXT_ELSEWHERE = 0.8;
export const TEXT_NEAR_SPELLING = 0.6;
export const TEXT_MATCH_THRESHOLD = TEXT_NEAR_SPELLING;

/** The text similarity of a want to an item from what the search found. */
export function textSimilarityOf(found: {
  inTitle: boolean;
  inText: boolean;
  nearSpelling: boolean;
}): number {
  if (found.inTitle) return TEXT_IN_TITLE;
  if (found.inText) return TEXT_ELSEWHERE;
  if (found.nearSpelling) return TEXT_NEAR_SPELLING;
  return 0;
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
  /** 0 to 1, see textSimilarityOf (two decimals at most). */
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

/** Points for closeness: 20 at 0 miles, 0 at NEARNESS_SCALE_MILES or beyond or when unknown. */
export function nearnessPoints(distanceMiles: number | null): number {
  if (distanceMiles === null) return 0;
  const tenths = Math.max(0, Math.round(distanceMiles * 10));
  const scaleTenths = NEARNESS_SCALE_MILES * 10;
  return Math.floor((Math.max(0, scaleTenths - tenths) * MATCH_POINTS.nearness) / scaleTenths);
}

/** Points for how similar the want's words are to the item's (0 to 20). */
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
