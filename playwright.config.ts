import { defineConfig, devices } from '@playwright/test';
import { E2E_SESSION_SECRET } from './e2e/support/moderator';

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

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
};

/** Browser journeys against the real server on a fresh embedded database, in Debian's Chromium. */
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
  outputDir: 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    // The service worker would download the whole app into every test's browser; only the offline
    // journey (which allows it) needs it.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
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
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: E2E_BASE_URL,
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.data-e2e',
      SITE_PASSWORD: 'barter',
      // Every journey passes the gate from 127.0.0.1; the limit itself is tested in the API suites.
      GATE_RATE_LIMIT: '10000',
      LOGIN_RATE_LIMIT: '10000',
      REGISTER_RATE_LIMIT: '10000',
      DEMO_LOGIN_RATE_LIMIT: '10000',
      // The journeys share two cores with Chromium and the test runner, where a turn of the server's
      // event loop can run past the shedding limit: a shed event stream is retried by the page, but
      // the browser logs its 503, which fails the journey. Shedding is tested in
      // server/plugins/load-shedding.test.ts and npm run test:faults (ADR 041).
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: E2E_SESSION_SECRET,
      // A stream whose session ended closes at the next heartbeat; journeys should not wait 25 s.
      EVENT_HEARTBEAT_SECONDS: '3',
      // Trade circles come from the real finder in the background (off by default when testing).
      CIRCLE_FINDER: 'true',
    },
  },
});
