import { describe, expect, it } from 'vitest';
import {
  isMatch,
  MATCH_POINTS,
  type MatchComponents,
  matchScore,
  nearnessPoints,
  scoreParts,
  textPoints,
  valueFit,
} from './match-score';

const base: MatchComponents = {
  sameCategory: true,
  textSimilarity: 0.5,
  mutual: false,
  distanceMiles: 3,
  itemValue: 40,
  maxValue: 50,
};

/** Every combination of a few values of each component, for properties that must hold everywhere. */
function* combinations(): Generator<MatchComponents> {
  for (const sameCategory of [true, false])
    for (const textSimilarity of [0, 0.3, 0.6, 0.61, 0.8, 1])
      for (const mutual of [true, false])
        for (const distanceMiles of [null, 0, 0.1, 1, 4.9, 12.3, 24.9, 49.9, 50, 80])
          for (const [itemValue, maxValue] of [
            [null, null],
            [10, null],
            [null, 10],
            [10, 10],
            [10.5, 10],
            [11, 10],
            [11.01, 10],
            [0, 0],
          ] as Array<[number | null, number | null]>)
            yield { sameCategory, textSimilarity, mutual, distanceMiles, itemValue, maxValue };
}

describe('matchScore', () => {
  it('is a whole number from 0 to 100 for every match', () => {
    for (const c of combinations()) {
      const score = matchScore(c);
      if (score === null) continue;
      expect(Number.isInteger(score)).toBe(true);
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(100);
    }
  });

  it('ranks a mutual match above a one-sided one, all else equal', () => {
    for (const c of combinations()) {
      const oneSided = matchScore({ ...c, mutual: false });
      const mutual = matchScore({ ...c, mutual: true });
      if (oneSided === null) {
        expect(mutual).toBeNull();
        continue;
      }
      expect(mutual).toBeGreaterThan(oneSided);
    }
  });

  it('gives reciprocity more points than any other single signal', () => {
    const others = [
      MATCH_POINTS.sameCategory,
      MATCH_POINTS.text,
      MATCH_POINTS.nearness,
      MATCH_POINTS.valueWithin,
    ];
    expect(MATCH_POINTS.mutual).toBeGreaterThan(Math.max(...others));
  });

  it('ranks nearer higher at equal relevance, never lower', () => {
    for (const c of combinations()) {
      if (c.distanceMiles === null) continue;
      const far = matchScore(c);
      const near = matchScore({ ...c, distanceMiles: Math.max(0, c.distanceMiles - 5) });
      if (far === null) continue;
      expect(near).not.toBeNull();
      expect(near as number).toBeGreaterThanOrEqual(far);
    }
    expect(matchScore({ ...base, distanceMiles: 1 })).toBeGreaterThan(
      matchScore({ ...base, distanceMiles: 20 }) as number,
    );
    expect(matchScore({ ...base, distanceMiles: 20 })).toBeGreaterThan(
      matchScore({ ...base, distanceMiles: 45 }) as number,
    );
  });

  it('does not match when the value is above maxValue beyond the 10% tolerance', () => {
    expect(matchScore({ ...base, itemValue: 55.01, maxValue: 50 })).toBeNull();
    expect(matchScore({ ...base, itemValue: 1000, maxValue: 50, mutual: true })).toBeNull();
    // Within the tolerance it still matches, with fewer value points than within the budget.
    const tolerated = scoreParts({ ...base, itemValue: 55, maxValue: 50 });
    const within = scoreParts({ ...base, itemValue: 50, maxValue: 50 });
    expect(tolerated?.value).toBe(MATCH_POINTS.valueUnsure);
    expect(within?.value).toBe(MATCH_POINTS.valueWithin);
  });

  it('needs the category or the words to match', () => {
    expect(isMatch({ ...base, sameCategory: false, textSimilarity: 0.59 })).toBe(false);
    expect(isMatch({ ...base, sameCategory: false, textSimilarity: 0.6 })).toBe(true);
    expect(isMatch({ ...base, sameCategory: true, textSimilarity: 0 })).toBe(true);
  });

  it('adds up its parts, as the docs describe', () => {
    expect(
      scoreParts({
        sameCategory: true,
        textSimilarity: 1,
        mutual: true,
        distanceMiles: 0,
        itemValue: 10,
        maxValue: 10,
      }),
    ).toEqual({ relevance: 40, reciprocity: 30, nearness: 20, value: 10, total: 100 });
    expect(
      scoreParts({
        sameCategory: false,
        textSimilarity: 0.8,
        mutual: false,
        distanceMiles: null,
        itemValue: null,
        maxValue: 10,
      }),
    ).toEqual({ relevance: 16, reciprocity: 0, nearness: 0, value: 5, total: 21 });
  });
});

describe('score parts', () => {
  it('nearness falls from 20 at 0 miles to 0 at 50 miles', () => {
    expect(nearnessPoints(0)).toBe(20);
    expect(nearnessPoints(2.5)).toBe(19);
    expect(nearnessPoints(25)).toBe(10);
    expect(nearnessPoints(49.9)).toBe(0);
    expect(nearnessPoints(50)).toBe(0);
    expect(nearnessPoints(120)).toBe(0);
    expect(nearnessPoints(null)).toBe(0);
  });

  it('text points are a fifth of the similarity in percent', () => {
    expect(textPoints(0)).toBe(0);
    expect(textPoints(0.63)).toBe(12);
    expect(textPoints(1)).toBe(20);
  });

  it('value fit compares whole cents', () => {
    expect(valueFit(null, 10)).toBe('unknown');
    expect(valueFit(10, null)).toBe('unknown');
    expect(valueFit(10, 10)).toBe('within');
    expect(valueFit(11, 10)).toBe('tolerance');
    expect(valueFit(11.01, 10)).toBe('over');
    expect(valueFit(0.33, 0.3)).toBe('tolerance');
    expect(valueFit(0.34, 0.3)).toBe('over');
  });
});
