import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * The niceness of the threads that do CPU-heavy work for the server (the worker pool's tasks, photo
 * screening): below the main thread and the embedded database's thread, which answer members
 * (ADR 098). On a busy two-core host these threads had the CPU while a database round trip waited
 * for it: a one-statement hold of PGlite's connection took 300-450 ms instead of a few.
 */
export const HEAVY_WORK_NICE = 10;

/**
 * Lower this worker thread's scheduling priority to HEAVY_WORK_NICE. Linux only: there a nice value
 * belongs to a thread, and `setpriority(PRIO_PROCESS, 0)` changes the calling thread alone;
 * elsewhere it would lower the whole process, so nothing is done. Raising it back needs privileges,
 * so a thread that is lowered stays lowered; never called on the main thread.
 */
export function lowerThisWorkerThread(): void {
  if (isMainThread || process.platform !== 'linux') return;
  try {
    // Never raised: a server started under `nice` keeps its worker threads at least that low.
    if (os.getPriority(0) < HEAVY_WORK_NICE) os.setPriority(0, HEAVY_WORK_NICE);
  } catch {
    // Not permitted in this container: the thread runs at the process's priority, as before.
  }
}
