import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openEventStream } from './event-stream-client';

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A stream that sends these frames, then stays open. */
async function streamOf(frames: string[]): Promise<string> {
  const listening = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const frame of frames) response.write(frame);
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

describe('the test event-stream client checks the shared contract (ADR 046)', () => {
  it('returns events whose data has the shape of their type', async () => {
    const base = await streamOf([
      'id: 1\nevent: counts\ndata: {"notifications":2,"messages":0}\n\n',
      'id: 2\nevent: barter\ndata: {"barterRequestId":7,"threadId":3}\n\n',
    ]);
    const stream = await openEventStream(base);
    expect((await stream.next('counts')).data).toEqual({ notifications: 2, messages: 0 });
    expect((await stream.next('barter')).data).toEqual({ barterRequestId: 7, threadId: 3 });
    stream.close();
  });

  it('fails the read of an event off the contract, and of one after it, so no test passes over it', async () => {
    const base = await streamOf([
      'id: 1\nevent: counts\ndata: {"notifications":"2","messages":0}\n\n',
      'id: 2\nevent: barter\ndata: {"barterRequestId":7,"threadId":3}\n\n',
    ]);
    const stream = await openEventStream(base);
    await expect(stream.next('barter')).rejects.toThrow(/'counts' event off the contract/);
    stream.close();
  });

  it('fails an event type the contract does not name', async () => {
    const base = await streamOf(['id: 1\nevent: surprise\ndata: {}\n\n']);
    const stream = await openEventStream(base);
    await expect(stream.next()).rejects.toThrow(/'surprise' is not a member event type/);
    stream.close();
  });
});
