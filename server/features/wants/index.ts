/** What members are looking for. */

export { wantsMetByTrade } from './want-fulfilment';
export { wantsRoutes } from './wants-routes';
