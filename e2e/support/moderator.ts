/** The journeys' moderator, made by e2e/support/server.ts as `npm run admin -- grant` would. */
export const E2E_MODERATOR = {
  email: 'morgan.moderator@example.com',
  password: 'lantern harbor 64',
} as const;

/** The journeys' server's SESSION_SECRET (playwright.config.ts), for the links it signs. */
export const E2E_SESSION_SECRET = 'e2e-secret-that-is-long-enough-0123456789';
