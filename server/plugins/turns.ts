import { serviceUnavailable } from '../errors';

/**
 * Requests that take one turn of the event loop each (ADR 102): a flood of them arriving at once
 * (200 wrong-password sign-ins from 200 addresses) is answered one per turn, and between any two
 * the loop reads its sockets and the embedded database's replies, so a member's feed goes on being
 * served instead of waiting for the whole flood. Alone, a request waits for one turn (microseconds).
 *
 * `take()` resolves when it is this request's turn; the work it then does (its body read, checked
 * and answered) runs before the loop turns again. Past `maxWaiting` waiting it refuses at once with
 * 503 and Retry-After: the queue never grows without end, and a flood that outruns the loop is
 * refused for the cost of a throw.
 */
export function oneAtATurn(maxWaiting: number) {
  // A turn is scheduled exactly while someone waits: the first to wait schedules it, each turn the next.
  const waiting: Array<() => void> = [];
  const next = () => {
    waiting.shift()?.();
    // Scheduled from inside the check phase, the next one runs in the loop's next turn, after the
    // sockets and threads that are ready have been read.
    if (waiting.length > 0) setImmediate(next);
  };
  return {
    take(): Promise<void> {
      if (waiting.length >= maxWaiting) return Promise.reject(serviceUnavailable());
      if (waiting.length === 0) setImmediate(next);
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
      });
    },
    /** How many are waiting now (tests). */
    get waiting() {
      return waiting.length;
    },
  };
}
