import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import shipped from './playwright.config';

/**
 * The browser journeys against a server that is already running (BENCH_JOURNEY_URL), with whatever
 * settings it was started with: `npm run bench:evening -- --with-journey` runs one journey this way
 * beside its load, against its server started with the settings a user gets. Desktop only, one
 * worker; everything else as playwright.config.ts.
 */
const baseURL = process.env.BENCH_JOURNEY_URL;
if (!baseURL) throw new Error('BENCH_JOURNEY_URL must name the running server (http://127.0.0.1:PORT)');

export default defineConfig({
  ...shipped,
  webServer: undefined,
  workers: 1,
  outputDir: process.env.BENCH_JOURNEY_OUTPUT ?? path.join(os.tmpdir(), 'barterhood-bench-journey'),
  use: { ...shipped.use, baseURL },
  projects: (shipped.projects ?? []).filter((project) => project.name === 'desktop'),
});
