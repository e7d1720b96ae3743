import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { EventStream, sseFrame } from './event-stream';

/** Just enough of a ServerResponse: what was written, and a socket that never drains. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  writableLength = 0;
  headersSent = false;
  destroyed = false;
  ended = false;
  writeHead() {
    this.headersSent = true;
    return this;
  }
  write(text: string) {
    this.written.push(text);
    this.writableLength += Buffer.byteLength(text);
    return true;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.destroyed = true;
  }
}

const streamOn = (response: FakeResponse, maxBuffered?: number) => {
  const closed: EventStream[] = [];
  const stream = new EventStream(
    'member',
    'sid',
    response as unknown as ServerResponse,
    (s) => closed.push(s),
    (position) => `p${position}`,
    maxBuffered,
  );
  return { stream, closed };
};

describe('sseFrame', () => {
  it('writes id, event and the data as one line of JSON, even when the text has line breaks', () => {
    const idText = (position: number) => `opaque-${position}`;
    expect(sseFrame({ id: 7, type: 'counts', data: { notifications: 1, messages: 0 } }, idText)).toBe(
      'id: opaque-7\nevent: counts\ndata: {"notifications":1,"messages":0}\n\n',
    );
    const frame = sseFrame({ type: 'resync', data: { text: 'a\nb\r\nc\u2028d' } }, idText);
    expect(frame.startsWith('event: resync\ndata: ')).toBe(true);
    expect(frame.slice(0, -2).split(/\r\n|\r|\n/)).toHaveLength(2);
  });
});

describe('EventStream', () => {
  it('holds events until it starts, then writes the first ones and those, each stored event once', () => {
    const response = new FakeResponse();
    const { stream } = streamOn(response);
    stream.send({ id: 5, type: 'barter', data: { n: 5 }, stored: true });
    stream.send({ id: 6, type: 'barter', data: { n: 6 }, stored: true });
    expect(response.written).toEqual([]);
    stream.start({}, [
      { id: 4, type: 'barter', data: { n: 4 }, stored: true },
      { id: 5, type: 'barter', data: { n: 5 }, stored: true },
      { type: 'counts', data: {} },
    ]);
    stream.send({ id: 6, type: 'barter', data: { n: 6 }, stored: true });
    const ids = response.written.join('').match(/^id: .+$/gm);
    expect(ids).toEqual(['id: p4', 'id: p5', 'id: p6']);
    expect(stream.cursor).toBe(6);
  });

  it('drops a page that stopped reading once its backlog passes the limit, instead of buffering', () => {
    const response = new FakeResponse();
    const { stream, closed } = streamOn(response, 10_000);
    stream.start({}, []);
    for (let id = 1; id <= 100 && !stream.closed; id++) {
      stream.send({ id, type: 'barter', data: { padding: 'x'.repeat(1_000) }, stored: true });
    }
    expect(stream.closed).toBe(true);
    expect(response.destroyed).toBe(true);
    expect(closed).toEqual([stream]);
    expect(response.writableLength).toBeLessThan(10_000 + 1_200);
  });

  it('reports its end once, whether it ends itself or the socket closes', () => {
    const response = new FakeResponse();
    const { stream, closed } = streamOn(response);
    stream.start({}, []);
    stream.end(60_000);
    response.emit('close');
    expect(response.written.at(-1)).toBe('retry: 60000\n\n');
    expect(response.ended).toBe(true);
    expect(closed).toHaveLength(1);
  });
});
