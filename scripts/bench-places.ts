/**
 * How long the offline place index takes to build and how much memory it keeps, each run in a fresh
 * process (the index is built once per process). Usage: npx tsx scripts/bench-places.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = 'BENCH_PLACES_CHILD';

async function child() {
  const { nearestPlace, placeIndexStats, searchPlaces } = await import('#server/features/places/index.ts');
  global.gc?.();
  const before = process.memoryUsage();
  const cpuBefore = process.cpuUsage();
  searchPlaces('Portl', 5);
  const cpu = process.cpuUsage(cpuBefore);
  global.gc?.();
  const after = process.memoryUsage();
  nearestPlace(45.5, -122.6); // builds the k-d tree
  global.gc?.();
  const withTree = process.memoryUsage();
  const timings: Record<string, number> = {};
  for (const q of ['Portl', 'san', 'Zurich', 'Portland, Maine', 'xqzvw']) {
    const started = performance.now();
    for (let i = 0; i < 100; i++) searchPlaces(q, 5);
    timings[q] = (performance.now() - started) / 100;
  }
  const started = performance.now();
  for (let i = 0; i < 1000; i++) nearestPlace(45 + i / 1000, -122);
  timings.reverse = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      ...placeIndexStats(),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      // Search index only (the k-d tree comes with the first reverse look-up).
      retainedHeapMb: (after.heapUsed - before.heapUsed) / 1e6,
      retainedBuffersMb: (after.arrayBuffers - before.arrayBuffers) / 1e6,
      retainedWithTreeMb:
        (withTree.heapUsed + withTree.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1e6,
      msPerQuery: timings,
    }),
  );
}

function parent() {
  const runs = Number(process.argv[2] ?? 5);
  const results = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)],
      {
        env: { ...process.env, [CHILD]: '1' },
        encoding: 'utf8',
      },
    );
    results.push(JSON.parse(out.trim().split('\n').at(-1) ?? '{}'));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  console.log(`places: ${results[0]?.places}`);
  console.log(
    `build time, ms: ${results.map((r) => r.loadMs).join(', ')} (median ${median(results.map((r) => r.loadMs))})`,
  );
  console.log(
    `k-d tree for reverse look-ups (built on the first one), ms: ${results.map((r) => r.treeMs).join(', ')}`,
  );
  console.log(`CPU time (all threads), ms: ${results.map((r) => r.cpuMs).join(', ')}`);
  console.log(`retained heap, MB: ${median(results.map((r) => r.retainedHeapMb)).toFixed(1)} (median)`);
  console.log(
    `retained array buffers, MB: ${median(results.map((r) => r.retainedBuffersMb)).toFixed(1)} (median)`,
  );
  console.log(
    `retained in all with the k-d tree, MB: ${median(results.map((r) => r.retainedWithTreeMb)).toFixed(1)} (median)`,
  );
  console.log('ms per query (last run):', results.at(-1)?.msPerQuery);
}

if (process.env[CHILD]) await child();
else parent();
