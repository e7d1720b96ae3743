/**
 * Makes server/photos/screening/fixtures/flagged-noise.png: coloured noise nudged, step by step
 * along the sign of the model's gradient, until NSFWJS's MobileNetV2 rates it "Porn" almost
 * certainly. The picture shows nothing at all; it lets the tests send a photo the real model flags
 * (ADR 027) without keeping an explicit photo in the repository. Takes a few minutes (TensorFlow.js
 * computes gradients on its plain JavaScript backend here).
 *
 *   npx tsx scripts/make-screening-fixture.ts [OUT.png]
 */

import type { LayersModel } from '@tensorflow/tfjs';
import * as tf from '@tensorflow/tfjs';
import { load } from 'nsfwjs';
import sharp from 'sharp';

const SIZE = 224;
const PORN = 3;
const out =
  process.argv[2] ??
  new URL('../server/photos/screening/fixtures/flagged-noise.png', import.meta.url).pathname;

await tf.setBackend('cpu');
const classifier = await load('MobileNetV2', { size: SIZE });
const model = classifier.model as LayersModel;
const predict = (image: tf.Tensor3D) => model.predict(image.div(255).expandDims(0)) as tf.Tensor2D;
const loss = (image: tf.Tensor) =>
  predict(image as tf.Tensor3D)
    .squeeze()
    .log()
    .gather(PORN)
    .neg() as tf.Scalar;
const gradient = tf.grad(loss);

let image = tf.randomUniform([SIZE, SIZE, 3], 100, 160, 'float32', 7) as tf.Tensor3D;
for (let step = 0; step < 60; step++) {
  const g = gradient(image);
  const next = tf.tidy(() => image.sub(g.sign().mul(1.5)).clipByValue(0, 255).round()) as tf.Tensor3D;
  g.dispose();
  image.dispose();
  image = next;
  const scores = tf.tidy(() => predict(image).dataSync());
  console.log(`step ${step}: porn ${scores[PORN]?.toFixed(4)}`);
  if ((scores[PORN] ?? 0) > 0.99) break;
}
const pixels = Buffer.from(Uint8Array.from(await image.data()));
await sharp(pixels, { raw: { width: SIZE, height: SIZE, channels: 3 } })
  .png()
  .toFile(out);
console.log(`wrote ${out}`);
