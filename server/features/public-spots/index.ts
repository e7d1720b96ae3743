/** Public spots for hand-overs (ADR 080): the moderators' list, and the spots near some members. */
export { liveSpot, type SpotMember, spotsNear } from './public-spots';
export { publicSpotsRoutes } from './public-spots-routes';
