import { circlePath } from '#common/schemas/circles.ts';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { Db } from '#server/db/client.ts';
import { findCircleViews, findReceivingInCircles, presentCircle } from '../../circles';
import { graphPageSql, graphState, requestGraph } from '../../match-graph';
import { matchPage, sortedOrder } from '../feed-candidates';
import { MATCH_COLUMNS } from '../feed-cards';
import { type FeedDefinition, RANKINGS_KEPT } from '../feed-definition';
import { conditionAtLeast } from '../feed-sql';
import { searchMatch, searchTier } from '../search';

/**
 * Barter Match comes from the member's match graph once it is built (ADR 022); until then from the
 * ranking query, and the first visit asks for the graph.
 */
async function readsMatchGraph(db: Db, memberId: string): Promise<boolean> {
  const state = await graphState(db, memberId);
  if (state === 'none') await requestGraph(db, memberId);
  return state === 'built';
}

/**
 * Barter Match shows the items the viewer would get in a trade circle proposed to them "in a
 * circle", with the loop explained (issue 16). One indexed read per page; the circles themselves
 * only when one of their items is on the page, all of them in one read.
 */
async function markCircles(db: Db, viewerId: string, items: FeedItem[]): Promise<FeedItem[]> {
  const now = new Date();
  const receiving = await findReceivingInCircles(db, viewerId, now);
  const onPage = receiving.filter((entry) => items.some((item) => item.id === entry.itemId));
  if (onPage.length === 0) return items;
  const views = await findCircleViews(
    db,
    viewerId,
    onPage.map((entry) => entry.circleId),
  );
  const paths = new Map<number, { circleId: number; path: string }>();
  for (const entry of onPage) {
    const view = views.find((candidate) => candidate.row.id === entry.circleId);
    if (view) {
      paths.set(entry.itemId, {
        circleId: entry.circleId,
        path: circlePath(presentCircle(view, viewerId, now)),
      });
    }
  }
  return items.map((item) => {
    const circle = paths.get(item.id);
    return circle && item.match ? { ...item, match: { ...item.match, circle } } : item;
  });
}

/**
 * Barter Match (docs/matching.md): items that match one of the member's wants, each with why (the
 * want, reciprocity, a trade circle); sorted by match too. From the member's match graph once built.
 */
export const barterMatch: FeedDefinition = {
  name: 'barter-match',
  reason: 'Items that match one of your wants, with why.',
  order: (params) =>
    params.sort === 'match'
      ? [
          ['score', 'DESC'],
          ['id', 'DESC NULLS LAST'],
        ]
      : sortedOrder(params),
  candidates: (params, order) => {
    if (!params.graph) return matchPage(params, order);
    const graph = { ...params, located: params.origin !== null };
    const text = params.search && { match: searchMatch(params.search), tier: searchTier(params.search) };
    const condition = params.condition ? conditionAtLeast(params.condition) : undefined;
    return graphPageSql(graph, order, text, condition);
  },
  // The ranking query's plan depends on the member's wants; the graph's walks do not.
  prepared: (params) => params.graph === true,
  searchPostings: false,
  reasons: MATCH_COLUMNS,
  caching: RANKINGS_KEPT,
  prepare: async (db, viewerId) => ({ graph: await readsMatchGraph(db, viewerId) }),
  finish: markCircles,
};
