/** Saved searches and fair alerts of new listings (issue 31, ADR 084). */
export { alertsRoutes } from './alerts-routes';
export { ALERT_WAVES, listingAlertsJob, sendListingAlerts } from './listing-alerts';
