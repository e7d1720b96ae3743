import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { MemberEventType } from '#common/member-events.ts';

/**
 * An event as written to a stream; stored events carry their position (a `member_events` id),
 * computed ones may not. A page never sees the position itself, only its opaque id (ADR 054).
 */
export interface OutgoingEvent {
  id?: number;
  type: MemberEventType;
  data: unknown;
  /** Stored in member_events (so sent at most once per stream). */
  stored?: boolean;
}

/** The headers of an event stream: never cached, not buffered by a proxy (nginx). */
export const EVENT_STREAM_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
};

/**
 * How much a stream may have waiting in its socket's buffers before it is dropped as too slow: a
 * page that stopped reading must not make the server hold its events forever. Its browser
 * reconnects and catches up from its last event id.
 */
export const STREAM_MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * How many sent event ids a stream remembers, to skip an event it already has (one that arrives both
 * live and in a catch-up read). More than the longest catch-up (EventHub's catchUpLimit).
 */
const REMEMBERED_IDS = 512;

/** How a stream writes a position as the id its page sees (EventIdCodec.encode for its member). */
export type EventIdText = (position: number) => string;

/**
 * One SSE frame: `id:` (when the event has a position, written by `idText`), `event:`, and the data
 * as one line of JSON.
 */
export function sseFrame(event: OutgoingEvent, idText: EventIdText): string {
  // JSON.stringify escapes CR and LF inside strings, so the data is one line, as SSE needs.
  const id = event.id === undefined ? '' : `id: ${idText(event.id)}\n`;
  return `${id}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * One open GET /api/events response. Until `start` it only collects what the hub delivers (the
 * catch-up read runs meanwhile); then it writes the first events and the collected ones, each stored
 * event at most once.
 */
export class EventStream {
  readonly openedAt = Date.now();
  /** The highest position this stream has given its page (where a catch-up would start). */
  cursor = 0;
  #closed = false;
  #pending: OutgoingEvent[] | null = [];
  readonly #sent = new Set<number>();
  readonly #onClosed: (stream: EventStream) => void;

  constructor(
    readonly userId: string,
    /** The hashed id of the session that opened it: the stream ends with that session. */
    readonly sessionHash: string | null,
    private readonly response: ServerResponse,
    onClosed: (stream: EventStream) => void,
    /** Writes a position as the opaque id the page sees (ADR 054). */
    private readonly idText: EventIdText,
    private readonly maxBufferedBytes = STREAM_MAX_BUFFERED_BYTES,
  ) {
    this.#onClosed = onClosed;
    // A page that left before its request got this far: its response closed already and will not
    // say so again. Closed from the start, it takes no place among the member's streams.
    if (response.destroyed) {
      this.#closed = true;
      this.#pending = null;
      return;
    }
    response.once('close', () => this.#finish());
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Write the status and headers, then `first`, then what arrived in the meantime. */
  start(headers: OutgoingHttpHeaders, first: readonly OutgoingEvent[]): void {
    if (this.#closed) return;
    this.response.writeHead(200, headers);
    // Some proxies hold the headers back until the body starts; a comment line gets them going.
    this.#write(': connected\n\n');
    const pending = this.#pending ?? [];
    this.#pending = null;
    for (const event of [...first, ...pending]) this.send(event);
  }

  /** Write an event (skipped when this stream has already sent that stored event). */
  send(event: OutgoingEvent): void {
    if (this.#closed) return;
    if (this.#pending) {
      this.#pending.push(event);
      return;
    }
    if (event.id !== undefined) {
      if (event.stored) {
        if (this.#sent.has(event.id)) return;
        this.#remember(event.id);
      }
      if (event.id > this.cursor) this.cursor = event.id;
    }
    this.#write(sseFrame(event, this.idText));
  }

  /** A comment line (heartbeat); keeps proxies and the browser from thinking the stream is dead. */
  comment(text: string): void {
    if (this.#closed || this.#pending) return;
    this.#write(`: ${text}\n\n`);
  }

  /**
   * End the stream in good order. `retryMs` asks the browser to wait that long before it reconnects
   * (the SSE `retry:` field), for a stream closed because a newer one of the member took its place.
   */
  end(retryMs?: number): void {
    if (this.#closed) return;
    if (!this.#pending && this.response.headersSent) {
      if (retryMs !== undefined) this.response.write(`retry: ${retryMs}\n\n`);
      this.response.end();
    }
    this.#finish();
  }

  /** Drop the connection at once (a client too slow to read, or closing before it started). */
  destroy(): void {
    if (this.#closed) return;
    this.response.destroy();
    this.#finish();
  }

  #write(text: string): void {
    // writableLength counts what waits in this response and in its socket.
    if (this.response.writableLength > this.maxBufferedBytes) {
      this.destroy();
      return;
    }
    this.response.write(text);
  }

  #remember(id: number): void {
    this.#sent.add(id);
    if (this.#sent.size > REMEMBERED_IDS) {
      const oldest = this.#sent.values().next().value;
      if (oldest !== undefined) this.#sent.delete(oldest);
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending = null;
    this.#onClosed(this);
  }
}
