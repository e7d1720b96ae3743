/**
 * The match graph's published surface (README.md): the definition of a match (its score, and the
 * same in SQL, which Barter Match's ranking query shares), a member's graph (its state, a request to
 * build it, its pages) and the job that keeps it.
 */
export { graphState, requestGraph, settleMatchGraph } from './graph-maintenance';
export { type GraphPageParams, graphPageSql } from './graph-sql';
export { matchGraphPlugin } from './match-graph-plugin';
export {
  type MatchComponents,
  matchScore,
  nearnessPoints,
  TEXT_PERCENT,
  type TextFound,
  textPercentOf,
  textSimilarityOf,
} from './match-score';
export {
  ownerWantMatchesMyItem,
  scoreSql,
  textFoundColumns,
  textPercentSql,
  valueFits,
  valuePoints,
  wantHasRelated,
  wantPointsSql,
} from './match-sql';
export { type ListingToMatch, wantersOfListingSql } from './wanted-by';
