import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Chromium: Lighthouse measures pages in the whole browser (`npm run lighthouse`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium headless shell (package chromium-headless-shell): the same Blink and V8 without
 * the desktop browser's compositor and GPU process, what Playwright itself runs for headless
 * journeys. The journeys run in it: the same four journey files took 125-129 s of the host's CPU in
 * it against 159-166 s in the whole browser (ADR 121).
 */
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Make sure Debian's Chromium and its headless shell are there for the browser tests: install them
 * with apt-get when missing and we may (root), otherwise stop with a one-line instruction. Never
 * downloads a browser of its own.
 */
/** The browsers the tests need that are not installed. */
function missingBrowsers(): string[] {
  return [CHROMIUM_PATH, HEADLESS_SHELL_PATH].filter((binary) => !existsSync(binary));
}

export function ensureChromium(): void {
  if (missingBrowsers().length === 0) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || process.env.BARTERHOOD_NO_APT === '1') {
    console.error(
      'Browser tests need Debian\'s Chromium: run "sudo apt-get install -y chromium chromium-headless-shell" (or set CHROMIUM_PATH and CHROMIUM_HEADLESS_SHELL_PATH).',
    );
    process.exit(1);
  }
  console.log("Installing Debian's Chromium and its headless shell for the browser tests (apt-get)...");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync(
    'apt-get',
    ['install', '-y', '-qq', 'chromium', 'chromium-headless-shell', 'fonts-dejavu-core'],
    {
      stdio: 'inherit',
      env,
    },
  );
  const still = missingBrowsers();
  if (still.length) {
    console.error(`${still.join(' and ')} still missing after apt-get; install by hand.`);
    process.exit(1);
  }
}
