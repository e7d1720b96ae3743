// Circles' published surface (issue 29): what other features and the app may use; everything else
// in this folder is the feature's own.

export { circleExpiryJob } from './circle-expiry-job';
export { circleOfHandOvers } from './circle-legs';
export { askForCircles, CIRCLES_FULL_QUEUE, circlesPlugin } from './circles-plugin';
export { presentCircle } from './circles-presenter';
export {
  type CircleView,
  exportCirclesOf,
  findCircleView,
  findCircleViews,
  findReceivingInCircles,
  markCircleChanges,
} from './circles-repository';
export { circlesRoutes } from './circles-routes';
export { expireDueCircleProposals } from './circles-service';
export type { TradeGraph, TradeSolution } from './engine/graph';
export { solveTradesOffThread } from './engine/solve-off-thread';
export type { SolveOptions } from './engine/solver';
export { parseTradelist } from './engine/tradelist';
export { type ItemsInGraph, ownItemsInGraph } from './items-in-graph';
