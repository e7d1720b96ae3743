/** What `npm run lighthouse` (scripts/lighthouse.ts) demands of each page, apart from running it. */

/** Issue 17's bar, Lighthouse mobile settings. */
export const THRESHOLDS = {
  performance: 90,
  accessibility: 95,
  bestPractices: 95,
  /** Largest contentful paint, in milliseconds. */
  lcpMs: 1500,
} as const;

/** One run's scores (0-100) and timings. */
export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
}

export interface PageRun {
  name: string;
  url: string;
  finalUrl: string;
  figures: LighthouseFigures;
  /** The audits that cost points, for the log. */
  failed: string[];
  /** Lighthouse's runtime error when it could not record the run (its scores are then missing). */
  recordingError?: string;
  /** Lighthouse's benchmark index of the host during the run (its CPU speed; 0 when not given). */
  benchmarkIndex?: number;
}

/** What is wrong with a run; empty when it passes. */
export function judge(figures: LighthouseFigures): string[] {
  const problems: string[] = [];
  if (figures.performance < THRESHOLDS.performance)
    problems.push(`performance ${figures.performance} < ${THRESHOLDS.performance}`);
  if (figures.accessibility < THRESHOLDS.accessibility)
    problems.push(`accessibility ${figures.accessibility} < ${THRESHOLDS.accessibility}`);
  if (figures.bestPractices < THRESHOLDS.bestPractices)
    problems.push(`best practices ${figures.bestPractices} < ${THRESHOLDS.bestPractices}`);
  if (!(figures.lcpMs <= THRESHOLDS.lcpMs))
    problems.push(`LCP ${(figures.lcpMs / 1000).toFixed(2)} s > ${THRESHOLDS.lcpMs / 1000} s`);
  return problems;
}

/**
 * The median run by performance score (then LCP), as Lighthouse advises for noisy single runs: one
 * run alone, the middle of three.
 */
export function median(runs: PageRun[]): PageRun {
  if (runs.length === 0) throw new Error('No runs to choose from');
  const sorted = [...runs].sort(
    (a, b) => a.figures.performance - b.figures.performance || b.figures.lcpMs - a.figures.lcpMs,
  );
  return sorted[Math.floor((sorted.length - 1) / 2)] as PageRun;
}

/** The most runs a page gets when its median of three fails (Lighthouse advises five for stability). */
export const MOST_RUNS = 5;

/**
 * Whether a page measured `runs.length` times of `planned` gets two more runs before its verdict:
 * when its median of three or more fails, up to five in all. One slow run among three can decide a
 * median of three (two slow runs of a page that is mostly fast); a median of five needs three. A page
 * that is slow most of the time still fails.
 */
export function needsMoreRuns(runs: PageRun[], planned: number): boolean {
  if (planned < 3 || runs.length < planned || runs.length >= MOST_RUNS) return false;
  return judge(median(runs).figures).length > 0;
}
