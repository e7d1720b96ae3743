/**
 * `npm run bench:moderation`: how long moderation takes per listing on the corpus, and on long hostile
 * input (the shapes that make badly written patterns backtrack). Prints figures; asserts nothing.
 */
import { ORDINARY, REFUSED } from '#server/moderation/corpus.ts';
import { moderateText } from '#server/moderation/moderation.ts';

const texts = [...REFUSED.map(([, text]) => text), ...ORDINARY.map(({ text }) => text)];
moderateText('warm up'); // the first call compiles the patterns
const rounds = 50;
const started = performance.now();
for (let round = 0; round < rounds; round++) for (const text of texts) moderateText(text);
const perText = (1000 * (performance.now() - started)) / (rounds * texts.length);
console.log(`corpus: ${perText.toFixed(1)} µs per text (${texts.length} texts x ${rounds} rounds)`);

for (const [name, hostile] of [
  ['20,000 repeated letters', `w${'e'.repeat(20_000)}`],
  ['5,000 phone-like groups', '555-'.repeat(5000)],
  ['10,000 dotted letters', 'a.'.repeat(10_000)],
  ['one 20,000-letter word', 'l'.repeat(20_000)],
] as const) {
  const start = performance.now();
  moderateText(hostile);
  console.log(`hostile, ${name}: ${(performance.now() - start).toFixed(1)} ms`);
}
