import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { oneAtATurn } from './turns';

describe('oneAtATurn', () => {
  it('lets waiting requests go one per turn of the event loop, in order, with I/O read between', async () => {
    const turns = oneAtATurn(100);
    const resolved: number[] = [];
    const all = Array.from({ length: 5 }, (_, k) => turns.take().then(() => resolved.push(k)));
    expect(turns.waiting).toBe(5);
    // A message from another port is read in the loop's poll phase: it must not wait for all five.
    const { port1, port2 } = new MessageChannel();
    const seenAt = new Promise<number>((resolve) => {
      port2.once('message', () => resolve(resolved.length));
    });
    port1.postMessage('a member request');
    const whenRead = await seenAt;
    await Promise.all(all);
    port1.close();
    expect(whenRead).toBeLessThan(5);
    expect(resolved).toEqual([0, 1, 2, 3, 4]);
    expect(turns.waiting).toBe(0);
  });

  it('resolves a lone request at the next turn', async () => {
    const turns = oneAtATurn(1);
    await turns.take();
    await turns.take();
    expect(turns.waiting).toBe(0);
  });

  it('refuses at once with 503 past maxWaiting, and nothing waiting is lost', async () => {
    const turns = oneAtATurn(2);
    const first = turns.take();
    const second = turns.take();
    const refused = await turns.take().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(503);
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
  });
});
