/**
 * `npm test`: every test of the project. Biome's lint (the boundaries between rooms among its
 * rules), the build (web app and server), then unit, API and component tests (Vitest), the
 * JavaScript budget, then the browser journeys (Playwright in Debian's Chromium).
 * Exits non-zero when any step fails.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './chromium';

process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = '1';

/** Each step's time, printed at the end: CI must finish within 40 minutes (docs/testing.md). */
const timings: string[] = [];

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): boolean {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push(`${title}: ${Math.round((Date.now() - started) / 1000)} s`);
  return result.status === 0;
}

/**
 * The failed Vitest tests by name, from its JSON report: the journeys' output comes after Vitest's
 * own summary, and a CI log shows only its end.
 */
function failedVitestTests(reportFile: string): string[] {
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as {
      testResults: Array<{
        name: string;
        message?: string;
        assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }>;
      }>;
    };
    return report.testResults.flatMap((file) => {
      const name = file.name.replace(`${process.cwd()}/`, '');
      const failed = file.assertionResults.filter((test) => test.status === 'failed');
      if (failed.length)
        return failed.map((test) => `${name} > ${test.fullName}${why(test.failureMessages?.[0])}`);
      return file.message ? [`${name}: ${file.message.split('\n')[0]}`] : [];
    });
  } catch {
    return [`(no Vitest report at ${reportFile})`];
  }
}

/** A failure's first lines, indented under its name: enough to know why from a log's tail. */
function why(message: string | undefined): string {
  if (!message) return '';
  const lines = message.split('\n').filter((line) => line.trim() && !/^\s+at /.test(line));
  return lines
    .slice(0, 4)
    .map((line) => `\n      ${line.slice(0, 300)}`)
    .join('');
}

const steps: Array<[string, boolean]> = [];
// First, in seconds: Biome's rules, among them the rooms' boundaries (ADR 067: a feature reaches
// another only through its index.ts), which no test of behaviour would notice being crossed.
steps.push(['lint', run('lint (Biome: rules, boundaries, format)', 'npx', ['biome', 'check', '.'])]);
// Built first, once: the web app and the compiled server (npm run build). Tests that run the real
// `npm start` (scripts/run.test.ts) then find nothing stale instead of building inside Vitest beside
// every other test, and the budget, the journeys and Lighthouse (.ci/run) use this build.
const build =
  run('web build', 'npx', ['vite', 'build', '--logLevel', 'warn']) &&
  run('server build', 'npx', ['tsx', 'scripts/build-server.ts']);
steps.push(['build', build]);
const vitestReport = join(tmpdir(), `barterhood-vitest-${process.pid}.json`);
const vitest = run('unit, API and component tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
const vitestFailures = vitest ? [] : failedVitestTests(vitestReport);
rmSync(vitestReport, { force: true });
steps.push(['vitest', vitest]);
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
if (vitestFailures.length) console.log(`\nVitest failed:\n${vitestFailures.map((t) => `  ${t}`).join('\n')}`);
console.log(
  `\nnpm test: ${steps.length - failed.length} steps passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}`,
);
process.exit(failed.length ? 1 : 0);
