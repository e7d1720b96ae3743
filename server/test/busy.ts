import { DatabaseBusyError } from '../errors';

/** Whether `error` is the embedded database's "busy past DB_ACQUIRE_TIMEOUT_MS" (its work never ran). */
export function isDatabaseBusy(error: unknown): boolean {
  return (
    error instanceof DatabaseBusyError || (error as Error | undefined)?.cause instanceof DatabaseBusyError
  );
}

/**
 * Run `work`, and run it again while the database answers that it stayed busy (DatabaseBusyError:
 * the work never ran, as a client answered 503 sends again), until `withinMs` has passed. On a loaded
 * host PGlite's one connection can stay busy past the wait limit with a test's own parallel work or
 * an app's background jobs; what a test checks is the answer once the work runs.
 */
export async function askAgainWhileBusy<T>(work: () => Promise<T>, withinMs = 90_000): Promise<T> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseBusy(error) || performance.now() > deadline) throw error;
    }
  }
}
