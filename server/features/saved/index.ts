/** Items a member saved for later. */
export { savedRoutes } from './saved-routes';
