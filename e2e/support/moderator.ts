/** The journeys' moderator, made by e2e/support/server.ts as `npm run admin -- grant` would. */
export const E2E_MODERATOR = {
  email: 'morgan.moderator@example.com',
  password: 'lantern harbor 64',
} as const;
