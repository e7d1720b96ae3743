/** The site gate: a shared password in front of everything while the site is not public. */
export { GATE_COOKIE, gateGuard, gateRoutes, safeEqual } from './gate-plugin';
