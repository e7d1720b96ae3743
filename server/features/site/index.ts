/** What the web app asks of the site before anyone signs in (its settings). */
export { siteRoutes } from './site-routes';
