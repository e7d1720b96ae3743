/**
 * The photo screening worker thread (ADR 027): NSFWJS's MobileNetV2 classifier, whose weights ship
 * inside the `nsfwjs` package, on TensorFlow.js's WebAssembly backend (files from the installed
 * `@tensorflow/tfjs-backend-wasm`; nothing is downloaded). Loaded once, on the first photo; each
 * message is the RGB pixels of one photo at SCREEN_PX x SCREEN_PX, each answer the five class
 * probabilities.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import type { NSFWJS } from 'nsfwjs';
import { lowerThisWorkerThread } from '../../workers/thread-priority';
import { SCREEN_PX, type ScreenReply, type ScreenRequest } from './screening-protocol';

// CPU-heavy work yields the CPU to the threads that answer members (ADR 098).
lowerThisWorkerThread();

const require = createRequire(import.meta.url);

async function loadModel(): Promise<NSFWJS> {
  const wasm = require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm');
  setWasmPaths(`${path.dirname(wasm)}${path.sep}`);
  await tf.setBackend('wasm');
  await tf.ready();
  const { load } = await import('nsfwjs');
  // nsfwjs announces the model it uses on the console; the server's log says what matters.
  const info = console.info;
  console.info = () => undefined;
  try {
    return await load('MobileNetV2', { size: SCREEN_PX });
  } finally {
    console.info = info;
  }
}

const model = loadModel();
// A load failure is answered per request (the main thread logs it and restarts the worker).
model.catch(() => undefined);

parentPort?.on('message', async (request: ScreenRequest) => {
  let reply: ScreenReply;
  try {
    const classifier = await model;
    const image = tf.tensor3d(request.pixels, [SCREEN_PX, SCREEN_PX, 3], 'int32');
    try {
      const predictions = await classifier.classify(image, 5);
      reply = {
        id: request.id,
        scores: Object.fromEntries(predictions.map((p) => [p.className, p.probability])),
      };
    } finally {
      image.dispose();
    }
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
