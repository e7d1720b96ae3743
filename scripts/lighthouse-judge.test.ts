import { describe, expect, it } from 'vitest';
import { judge, type LighthouseFigures, median, needsMoreRuns, type PageRun } from './lighthouse-judge';

const good: LighthouseFigures = {
  performance: 97,
  accessibility: 100,
  bestPractices: 100,
  lcpMs: 1200,
  fcpMs: 900,
  tbtMs: 30,
  cls: 0,
};
const run = (figures: Partial<LighthouseFigures>, name = 'feed'): PageRun => ({
  name,
  url: 'http://127.0.0.1:5303/',
  finalUrl: 'http://127.0.0.1:5303/',
  figures: { ...good, ...figures },
  failed: [],
});

describe("Lighthouse's verdict on a page", () => {
  it('passes a page at or above every bar', () => {
    expect(judge(good)).toEqual([]);
    expect(judge({ ...good, performance: 90, accessibility: 95, bestPractices: 95, lcpMs: 1500 })).toEqual(
      [],
    );
  });

  it('names each bar a page falls below', () => {
    expect(judge({ ...good, performance: 89 })).toEqual(['performance 89 < 90']);
    expect(judge({ ...good, accessibility: 94, bestPractices: 92 })).toEqual([
      'accessibility 94 < 95',
      'best practices 92 < 95',
    ]);
    expect(judge({ ...good, lcpMs: 1501 })).toEqual(['LCP 1.50 s > 1.5 s']);
    expect(judge({ ...good, lcpMs: 3500 })).toEqual(['LCP 3.50 s > 1.5 s']);
  });

  it('fails a page whose paint was never measured', () => {
    expect(judge({ ...good, lcpMs: Number.NaN })).toHaveLength(1);
    expect(judge({ ...good, lcpMs: Number.POSITIVE_INFINITY })).toHaveLength(1);
  });
});

describe('the median of repeated runs', () => {
  it('takes the middle run by performance, the only one of one', () => {
    const runs = [run({ performance: 70 }), run({ performance: 95 }), run({ performance: 91 })];
    expect(median(runs).figures.performance).toBe(91);
    expect(median([run({ performance: 80 })]).figures.performance).toBe(80);
  });

  it('breaks ties by the slower paint, and refuses no runs', () => {
    const runs = [run({ lcpMs: 1400 }), run({ lcpMs: 1600 }), run({ lcpMs: 1000 })];
    expect(median(runs).figures.lcpMs).toBe(1400);
    expect(() => median([])).toThrow();
  });
});

describe('two more runs for a page whose median of three fails', () => {
  it('asks for them only when the median of three or more fails, and stops at five', () => {
    const fast = run({ performance: 97 });
    const slow = run({ performance: 87 });
    expect(needsMoreRuns([fast, slow, fast], 3)).toBe(false);
    expect(needsMoreRuns([fast, slow, slow], 3)).toBe(true);
    // Two more, and three of five are fast: the median passes, no more runs.
    expect(needsMoreRuns([fast, slow, slow, fast, fast], 3)).toBe(false);
    expect(median([fast, slow, slow, fast, fast]).figures.performance).toBe(97);
    // A page slow most of the time still fails after five.
    expect(needsMoreRuns([slow, slow, fast, slow, fast], 3)).toBe(false);
    expect(judge(median([slow, slow, fast, slow, fast]).figures)).toEqual(['performance 87 < 90']);
    // Not before the planned runs are in, and never for one run (LIGHTHOUSE_RUNS=1).
    expect(needsMoreRuns([slow, slow], 3)).toBe(false);
    expect(needsMoreRuns([slow], 1)).toBe(false);
  });
});
