import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Make sure Debian's Chromium is there for the browser tests: install it with apt-get when missing
 * and we may (root), otherwise stop with a one-line instruction. Never downloads a browser of its own.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || process.env.BARTERHOOD_NO_APT === '1') {
    console.error(
      'Browser tests need Debian\'s Chromium: run "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).',
    );
    process.exit(1);
  }
  console.log("Installing Debian's Chromium for the browser tests (apt-get)...");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-dejavu-core'], {
    stdio: 'inherit',
    env,
  });
  if (!existsSync(CHROMIUM_PATH)) {
    console.error(`Chromium is still missing at ${CHROMIUM_PATH} after apt-get; install it by hand.`);
    process.exit(1);
  }
}
