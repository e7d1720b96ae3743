/** A member's public page: who they are, their record, items, wants and the ratings they received. */
export { membersRoutes } from './members-routes';
