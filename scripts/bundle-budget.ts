/**
 * The JavaScript budget per route (issue 2, per route since issue 17, ADR 033): what a route loads
 * before it can paint (the entry chunk, the route's lazy page chunk, and everything they import
 * statically; scripts/route-budget.ts), gzipped, must stay within 150 KB on the landing page and the
 * signed-in feed; the other measured routes are reported. Every route also loads one language's
 * first-screen messages before its first render (ADR 036): the larger of them counts. Run after `vite build`; reads
 * dist/web (or the directory given as the first argument).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  bootChunks,
  type Manifest,
  type RouteDefinition,
  routeChunks,
  routeStylesheets,
  stagesOutOfOrder,
} from './route-budget';

const BUDGET_BYTES = 150 * 1024;
/** The boot script and what it imports, preloaded beside the first screen (scripts/route-budget.ts). */
const BOOT_BUDGET_BYTES = 3 * 1024;
const dist = path.resolve(process.argv[2] ?? 'dist/web');

/** The routes of web/app/router.tsx that are checked. The landing page is part of the entry chunk. */
const ROUTES: RouteDefinition[] = [
  { name: 'landing (/ signed out)', pages: [], enforced: true },
  { name: 'feed (/ signed in)', pages: ['app/pages/home-page.tsx'], enforced: true },
  { name: 'profile (/profile)', pages: ['app/pages/profile-page.tsx'], enforced: false },
  { name: 'barter (/barters/:id)', pages: ['app/pages/barter-page.tsx'], enforced: false },
];

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
const sizes = new Map<string, number>();
const gzipped = (file: string): number => {
  let size = sizes.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    sizes.set(file, size);
  }
  return size;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Each language's first-screen messages (scripts/split-catalogues.ts); a route loads one language's
 * before its first render, so the largest counts. The rest of them load after the first paint.
 */
const catalogues = readdirSync(path.join(dist, 'locales'))
  .filter((file) => file.endsWith('-first.json'))
  .map((file) => `locales/${file}`);
if (catalogues.length === 0) throw new Error('The build has no first-screen messages (locales/*-first.json)');
const largestCatalogue = catalogues.reduce((a, b) => (gzipped(b) > gzipped(a) ? b : a));

let failed = 0;
for (const route of ROUTES) {
  const files = [...routeChunks(manifest, route.pages), largestCatalogue];
  const total = files.reduce((sum, file) => sum + gzipped(file), 0);
  const css = routeStylesheets(manifest, route.pages).reduce((sum, file) => sum + gzipped(file), 0);
  const over = total > BUDGET_BYTES;
  if (over && route.enforced) failed++;
  const verdict = over ? (route.enforced ? 'OVER the budget' : 'over the budget (reported only)') : 'within';
  console.log(
    `${route.name}: ${kb(total)} gzip of JavaScript in ${files.length} chunks, ${verdict}; CSS ${kb(css)}`,
  );
  for (const file of [...files].sort((a, b) => gzipped(b) - gzipped(a))) {
    console.log(`    ${file.padEnd(52)} ${kb(gzipped(file)).padStart(9)}`);
  }
}
const boot = bootChunks(manifest);
const bootBytes = boot.reduce((sum, file) => sum + gzipped(file), 0);
if (bootBytes > BOOT_BUDGET_BYTES) failed++;
console.log(
  `boot script before the first paint: ${kb(bootBytes)} gzip in ${boot.length} chunks (${boot.join(', ')}), ${bootBytes > BOOT_BUDGET_BYTES ? `OVER its ${BOOT_BUDGET_BYTES / 1024} KB` : 'within'}`,
);
console.log(
  `Budget: ${BUDGET_BYTES / 1024} KB gzip per route (${ROUTES.filter((route) => route.enforced)
    .map((route) => route.name)
    .join(', ')} enforced).`,
);
// The entry's imports as index.html preloads them (server/plugins/page-render.ts hands the list to
// web/boot.ts, which evaluates them one a task before the entry, ADR 105): each after all it imports.
const stages = [
  ...readFileSync(path.join(dist, 'index.html'), 'utf8').matchAll(
    /<link rel="modulepreload"[^>]*href="\/([^"]+)"/g,
  ),
].map((match) => match[1] as string);
const stageProblems = stagesOutOfOrder(manifest, stages);
if (stageProblems.length > 0) failed++;
console.log(
  `the entry's imports, evaluated a task each before it: ${stages.map((file) => `${file} ${kb(gzipped(file))}`).join(', ')}${stageProblems.length > 0 ? `; OUT OF ORDER: ${stageProblems.join('; ')}` : ''}`,
);
if (failed) process.exit(1);
