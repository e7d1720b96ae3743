import { defineConfig, devices } from '@playwright/test';
import { E2E_SESSION_SECRET } from './e2e/support/moderator';
import { HEADLESS_SHELL_PATH } from './scripts/chromium';

const PORT = Number(process.env.E2E_PORT ?? 5199);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;

/** Flags Chromium needs on this machine's closed network (docs/stack-notes.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Shared memory in /tmp: a container's /dev/shm is often 64 MB, which slows or crashes renderers.
  '--disable-dev-shm-usage',
  // A fake camera that needs no permission prompt, for the camera dialog.
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];

/** Debian's Chromium headless shell (ADR 121), as Playwright's own headless runs use. */
const launchOptions = {
  executablePath: HEADLESS_SHELL_PATH,
  args: CHROMIUM_ARGS,
};

/** Browser journeys against the real server on a fresh embedded database, in Debian's Chromium headless shell. */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // A whole journey's limit; each step waits at most the expect timeout below. On a slow
  // day of the shared two-core machine (2026-11-26 evening: the journeys took 14.6 min instead of
  // 6.5) a long journey, or axe over a page with the fake camera's live video, ran past 30 s.
  timeout: 60_000,
  // How long one step waits for the page. 7 s was too short on that slow evening: a drawn page's
  // hydration after sign-in beside the photo-screening model, and a photo's analysis, took longer.
  expect: { timeout: 15_000 },
  reporter: [['list']],
  // What the journey server shed (503) during the run, by reason, cost and route.
  globalTeardown: './e2e/support/report-shedding.ts',
  outputDir: 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    // The service worker would download the whole app into every test's browser; only the offline
    // journey (which allows it) needs it.
    serviceWorkers: 'block',
    // A failed journey keeps its trace: each action's page (DOM snapshots), network and console.
    // Not the screencast's film strip, which cost 6-9 % of the journeys' CPU (ADR 121); the
    // failure's own screenshot is below.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined, launchOptions } },
    {
      // On a phone's screen, the journeys whose layout differs there (the header menu, the bottom
      // navigation, the search box, the add-item and location forms); the others run on desktop only,
      // which keeps the suite within CI's time on two cores (ADR 031).
      name: 'phone',
      grep: /@phone/,
      grepInvert: /@desktop-only/,
      use: { ...devices['Pixel 7'], browserName: 'chromium', launchOptions },
    },
  ],
  webServer: {
    command: 'npx tsx e2e/support/server.ts',
    url: `${E2E_BASE_URL}/readyz`,
    reuseExistingServer: false,
    // A fresh database (created, migrated, the moderator made) takes a minute on a busy shared
    // machine (62 s at load average 33, 2026-11-28), before any journey starts.
    timeout: 180_000,
    // Its warnings and errors (LOG_LEVEL below) go to the run's output as [WebServer] lines: a slow
    // database hold (ADR 098) or a failure is then in CI's log beside the journey it hurt.
    stdout: 'pipe',
    stderr: 'pipe',
    // The settings a member gets from `npm start` (ADR 051): no NODE_ENV (its defaults: the circle
    // finder, the barter sweep, the demo login on), the shipped rate limits and load shedding, the
    // 25 s heartbeat. What is set here is this test's environment, not product behaviour:
    env: {
      // As `npm start` sets it (package.json): two malloc arenas.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      // Where it listens and is reached, and where its data lives: each run's own, never the defaults.
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: E2E_BASE_URL,
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.data-e2e',
      // An operator's choices: the site's password (the journeys type it), a fixed session secret (the
      // moderator's session is made with it, e2e/support/moderator.ts), no demo town (journeys make
      // their own members), and a quiet log.
      SITE_PASSWORD: 'barter',
      SESSION_SECRET: E2E_SESSION_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // Neighbours reach the server through a proxy that names their address (docs/deploy.md): each
      // journey is its own household (X-Forwarded-For, e2e/fixtures.ts), as each member's browser is
      // in a town; the per-address limits then count as they would there.
      TRUST_PROXY: '127.0.0.1',
      // Web Push goes to a push service on this machine (e2e/web-push.spec.ts starts it), the one
      // place an operator's list of push services names (ADR 087).
      WEB_PUSH_SERVICE_HOSTS: '127.0.0.1',
      // Its metrics, read once the journeys are done (e2e/support/report-shedding.ts): what load
      // shedding refused, in CI's log.
      METRICS_TOKEN: 'e2e-metrics-token-that-is-long-enough-0123456789',
    },
  },
});
