/**
 * `npm test`: every test of the project. Unit, API and component tests (Vitest), then the web build
 * and its JavaScript budget, then the browser journeys (Playwright in Debian's Chromium).
 * Exits non-zero when any step fails.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { ensureChromium } from './chromium';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

/** Each step's time, printed at the end: CI must finish within 20 minutes (docs/testing.md). */
const timings: string[] = [];

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push(`${title}: ${Math.round((Date.now() - started) / 1000)} s`);
  return result.status === 0;
}

const steps: Array<[string, boolean]> = [];
const vitest = run('unit, API and component tests', 'npx', ['vitest', 'run']);
steps.push(['vitest', vitest]);
const build = run('web build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
steps.push(['build', build]);
if (build)
  steps.push(['js budget', run('JavaScript budget per route', 'npx', ['tsx', 'scripts/bundle-budget.ts'])]);
if (build) {
  ensureChromium();
  rmSync('.data-e2e', { recursive: true, force: true });
  steps.push([
    'browser',
    run('browser journeys', 'npx', ['playwright', 'test'], { E2E_DATA_DIR: '.data-e2e' }),
  ]);
  rmSync('.data-e2e', { recursive: true, force: true });
}

const failed = steps.filter(([, ok]) => !ok).map(([name]) => name);
console.log(`\n${timings.join('\n')}`);
console.log(
  `\nnpm test: ${steps.length - failed.length} steps passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
