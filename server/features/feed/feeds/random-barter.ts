import { plainPage, randomPage } from '../feed-candidates';
import { type FeedDefinition, RANKINGS_KEPT } from '../feed-definition';
import { shuffleColumns } from '../feed-sql';

/**
 * Random Barter (docs/matching.md): every listed item of other members on one fixed pseudo-random
 * cycle, entered where the seed says (the client's, or the session's), whatever the sort.
 */
export const randomBarter: FeedDefinition = {
  name: 'random-barter',
  reason: 'Every listed item of other members, in an order the seed shuffles.',
  order: () => [
    ['lap', 'ASC'],
    ['shuffle', 'ASC'],
    ['id', 'ASC'],
  ],
  candidates: (params, order) =>
    params.q ? plainPage(params, order, { columns: shuffleColumns(params.seed) }) : randomPage(params, order),
  prepared: () => true,
  searchPostings: false,
  caching: { ...RANKINGS_KEPT, bySeed: true },
};
