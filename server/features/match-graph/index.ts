/**
 * The match graph's published surface (README.md): the definition of a match (its score, and the
 * same in SQL, which Barter Match's ranking query shares), a member's graph (its state, a request to
 * build it, its pages) and the job that keeps it.
 */
export { graphState, requestGraph, settleMatchGraph } from './graph-maintenance';
export { type GraphPageParams, graphPageSql } from './graph-sql';
export { matchGraphPlugin } from './match-graph-plugin';
export { type MatchComponents, matchScore, nearnessPoints, textSimilarityOf } from './match-score';
export {
  ownerWantMatchesMyItem,
  scoreSql,
  textPercentSql,
  valueFits,
  valuePoints,
  wantPointsSql,
} from './match-sql';
