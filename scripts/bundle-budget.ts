/**
 * The initial-route JavaScript budget (issue 2): the entry chunk and every chunk it imports
 * statically, gzipped, must stay under 150 KB. Lazy routes do not count. Run after `vite build`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const dist = path.resolve('dist/web');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export function initialChunks(manifest: Record<string, ManifestChunk>): string[] {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('No entry chunk in the Vite manifest');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry[0]);
  return [...seen].map((key) => manifest[key]?.file).filter((file): file is string => Boolean(file));
}

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
let total = 0;
for (const file of initialChunks(manifest)) {
  const size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`  ${file.padEnd(44)} ${(size / 1024).toFixed(1).padStart(7)} KB gzip`);
}
const verdict = total <= BUDGET_BYTES ? 'within' : 'OVER';
console.log(
  `Initial route JavaScript: ${(total / 1024).toFixed(1)} KB gzip, ${verdict} the ${BUDGET_BYTES / 1024} KB budget`,
);
if (total > BUDGET_BYTES) process.exit(1);
