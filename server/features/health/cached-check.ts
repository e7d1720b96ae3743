/**
 * A check whose answer is kept for `keepMs` from when it started: however many callers ask in that
 * time (a storm of readiness probes from several balancers), the checked service sees one call, and
 * every caller gets its answer, a failure as much as a success.
 */
export function cachedCheck(
  check: () => Promise<void>,
  keepMs: number,
  now: () => number = () => performance.now(),
): () => Promise<void> {
  let last: { startedAt: number; answer: Promise<void> } | null = null;
  return () => {
    const at = now();
    if (!last || at - last.startedAt >= keepMs) {
      const answer = check();
      // Kept for later callers; each caller handles the failure it is given.
      answer.catch(() => {});
      last = { startedAt: at, answer };
    }
    return last.answer;
  };
}
