import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HEAVY_WORK_NICE } from './thread-priority';

/** In a thread of its own: lowerThisWorkerThread(), then that thread's own nice value. */
function niceAfterLowering(): Promise<number> {
  const moduleUrl = new URL('./thread-priority.ts', import.meta.url).href;
  const worker = new Worker(
    `(async () => {
      const { parentPort } = await import('node:worker_threads');
      const os = await import('node:os');
      const { tsImport } = await import('tsx/esm/api');
      const { lowerThisWorkerThread } = await tsImport(${JSON.stringify(moduleUrl)}, ${JSON.stringify(import.meta.url)});
      lowerThisWorkerThread();
      parentPort.postMessage(os.getPriority(0));
    })();`,
    { eval: true },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (nice: number) => {
      void worker.terminate();
      resolve(nice);
    });
    worker.once('error', reject);
  });
}

describe.runIf(process.platform === 'linux')(
  'heavy work runs below the threads that answer members (ADR 098)',
  () => {
    it('lowers the worker thread that asks, and only that thread', async () => {
      const mainBefore = os.getPriority(0);
      expect(await niceAfterLowering()).toBe(Math.max(mainBefore, HEAVY_WORK_NICE));
      expect(os.getPriority(0)).toBe(mainBefore);
    });
  },
);
