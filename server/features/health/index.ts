/** Liveness and readiness (/healthz, /readyz). */
export { healthRoutes } from './health-routes';
