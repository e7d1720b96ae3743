import { describe, expect, it } from 'vitest';
import {
  isMatch,
  MATCH_POINTS,
  type MatchComponents,
  matchScore,
  nearnessPoints,
  scoreParts,
  TEXT_PERCENT,
  type TextFound,
  textPercentOf,
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
    for (const textSimilarity of [0, 0.12, 0.24, 0.3, 0.35, 0.7, 1])
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
    expect(isMatch({ ...base, sameCategory: false, textSimilarity: 0.29 })).toBe(false);
    expect(isMatch({ ...base, sameCategory: false, textSimilarity: 0.3 })).toBe(true);
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
    ).toEqual({ relevance: 45, reciprocity: 43, nearness: 8, value: 4, total: 100 });
    expect(
      scoreParts({
        sameCategory: false,
        textSimilarity: 0.7,
        mutual: false,
        distanceMiles: null,
        itemValue: null,
        maxValue: 10,
      }),
    ).toEqual({ relevance: 24, reciprocity: 0, nearness: 0, value: 2, total: 26 });
  });
});

describe('score parts', () => {
  it('nearness falls from 8 at 0 miles to 0 at 50 miles', () => {
    expect(nearnessPoints(0)).toBe(8);
    expect(nearnessPoints(6.2)).toBe(7);
    expect(nearnessPoints(6.3)).toBe(6);
    expect(nearnessPoints(25)).toBe(4);
    expect(nearnessPoints(49.9)).toBe(0);
    expect(nearnessPoints(50)).toBe(0);
    expect(nearnessPoints(120)).toBe(0);
    expect(nearnessPoints(null)).toBe(0);
  });

  it('text points are 35 hundredths of the similarity in percent, rounded down', () => {
    expect(textPoints(0)).toBe(0);
    expect(textPoints(0.7)).toBe(24);
    expect(textPoints(1)).toBe(35);
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

/** What the search found: `words` want words, `inTitle` of them in the title, nothing else. */
const found = (over: Partial<TextFound> = {}): TextFound => ({
  words: 2,
  inTitle: 0,
  relatedInTitle: 0,
  titleWithinWant: false,
  inText: false,
  nearSpelling: false,
  ...over,
});

describe('text similarity (issue 31, ADR 085)', () => {
  it('grades a title that is the want above one holding its words and more, above the rest', () => {
    // "Pasta maker": "Pasta Maker", "Marcato Atlas pasta maker", a related term, the description, half.
    expect(
      textPercentOf(found({ inTitle: 2, relatedInTitle: 2, titleWithinWant: true, inText: true }), true),
    ).toBe(100);
    expect(textPercentOf(found({ inTitle: 2, relatedInTitle: 2, inText: true }), true)).toBe(70);
    expect(textPercentOf(found({ inTitle: 1, relatedInTitle: 2 }), true)).toBe(35);
    expect(textPercentOf(found({ nearSpelling: true }), false)).toBe(35);
    expect(textPercentOf(found({ inText: true }), true)).toBe(30);
    // "Mountain bike" and a kids' bike: one word of two.
    expect(textPercentOf(found({ inTitle: 1, relatedInTitle: 1 }), true)).toBe(12);
    expect(textPercentOf(found(), true)).toBe(0);
    // A want of stop words only has no words to find.
    expect(textPercentOf(found({ words: 0, titleWithinWant: true }), true)).toBe(0);
  });

  it("counts related terms only within the want's category", () => {
    expect(textPercentOf(found({ inTitle: 1, relatedInTitle: 2 }), false)).toBe(12);
    expect(textPercentOf(found({ inTitle: 0, relatedInTitle: 1, words: 1 }), true)).toBe(
      TEXT_PERCENT.relatedInTitle,
    );
    expect(textPercentOf(found({ inTitle: 0, relatedInTitle: 1, words: 1 }), false)).toBe(0);
  });

  it('keeps a share of the words below the threshold of a match without the category', () => {
    for (let words = 1; words <= 8; words++)
      for (let inTitle = 0; inTitle < words; inTitle++) {
        const similarity = textPercentOf(found({ words, inTitle, relatedInTitle: inTitle }), false) / 100;
        expect(isMatch({ ...base, sameCategory: false, textSimilarity: similarity })).toBe(false);
      }
  });

  /** Every score a pair can get at this similarity, all else varied (reciprocity fixed). */
  const scoresAt = (textSimilarity: number, sameCategory: boolean, mutual: boolean) =>
    [...combinations()]
      .filter((c) => c.distanceMiles === null || c.distanceMiles <= 50)
      .map((c) => matchScore({ ...c, textSimilarity, sameCategory, mutual }))
      .filter((score): score is number => score !== null);

  it('puts a title that is the want above every other match in its category, whatever the distance and value', () => {
    for (const mutual of [false, true]) {
      const exact = Math.min(...scoresAt(1, true, mutual));
      const allInTitle = scoresAt(0.7, true, mutual);
      const rest = [0.35, 0.3, 0.24, 0.12, 0].flatMap((similarity) => scoresAt(similarity, true, mutual));
      expect(exact).toBeGreaterThan(Math.max(...allInTitle, ...rest));
      // A title with all the want's words, above related terms, near spellings, descriptions and shares.
      expect(Math.min(...allInTitle)).toBeGreaterThan(Math.max(...rest));
      // Outside the category, a title that is the want still ranks above category guesses and shares.
      const exactElsewhere = Math.min(...scoresAt(1, false, mutual));
      const guesses = [0.24, 0.12, 0].flatMap((similarity) => scoresAt(similarity, true, mutual));
      expect(exactElsewhere).toBeGreaterThan(Math.max(...guesses));
    }
  });

  it('scores "Pasta Maker" far above "Espresso machine" for a pasta maker, the espresso machine nearer', () => {
    const pastaMaker = matchScore({
      ...base,
      sameCategory: true,
      textSimilarity: 1,
      distanceMiles: 12,
      maxValue: null,
    });
    const espresso = matchScore({
      ...base,
      sameCategory: true,
      textSimilarity: 0,
      distanceMiles: 1,
      maxValue: null,
    });
    expect((pastaMaker as number) - (espresso as number)).toBeGreaterThanOrEqual(30);
  });
});
