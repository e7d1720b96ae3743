/** The printable community flyer of a neighbourhood's offers and wants. */
export { flyerRoutes } from './flyer-routes';
