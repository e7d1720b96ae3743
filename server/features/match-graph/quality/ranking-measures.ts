/**
 * Standard measures of a ranking against graded relevance (docs/matching.md: the labelled set).
 * Grades are whole numbers from 0 (not what was asked for) up; an item the ranking leaves out is
 * simply not in it.
 */

/** Discounted cumulative gain of the first `k` grades, with gain 2^grade - 1 (Järvelin and Kekäläinen). */
export function dcgAt(grades: readonly number[], k: number): number {
  let sum = 0;
  grades.slice(0, k).forEach((grade, index) => {
    sum += (2 ** grade - 1) / Math.log2(index + 2);
  });
  return sum;
}

/**
 * NDCG@k: the ranking's DCG over the best possible (every labelled item sorted by grade); 1 when
 * nothing relevant is labelled (no ranking can do better).
 */
export function ndcgAt(ranked: readonly number[], labelled: readonly number[], k: number): number {
  const ideal = dcgAt(
    [...labelled].sort((a, b) => b - a),
    k,
  );
  return ideal === 0 ? 1 : dcgAt(ranked, k) / ideal;
}

/** Precision@k: the share of the first k places holding an item graded at least `relevant`; a place left empty counts as a miss. */
export function precisionAt(ranked: readonly number[], k: number, relevant: number): number {
  return ranked.slice(0, k).filter((grade) => grade >= relevant).length / k;
}
