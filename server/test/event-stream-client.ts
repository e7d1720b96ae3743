/**
 * A small server-sent events client over node:http, for tests and the events benchmark: app.inject
 * cannot hold a stream open, so these go through a real listening server.
 */
import http from 'node:http';
import { MEMBER_EVENT_TYPES, type MemberEventType } from '#common/member-events.ts';
import { memberEventSchemas } from '#common/schemas/events.ts';

export interface ReceivedEvent {
  id: string | undefined;
  type: string;
  data: unknown;
  /** performance.now() when the frame was parsed. */
  at: number;
  /**
   * How the data breaks the event's shape in the shared contract (`memberEventSchemas`), when it
   * does: the browser trusts the shape (ADR 046), so every test that reads the stream checks it.
   */
  contractError?: string;
}

/** What is wrong with an event's data by the shared contract; undefined when nothing is. */
function contractErrorOf(type: string, data: unknown): string | undefined {
  if (!(MEMBER_EVENT_TYPES as readonly string[]).includes(type))
    return `'${type}' is not a member event type`;
  const parsed = memberEventSchemas[type as MemberEventType].safeParse(data);
  return parsed.success ? undefined : `'${type}' event off the contract: ${parsed.error.message}`;
}

export interface EventStreamClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event so far, in order. */
  events: ReceivedEvent[];
  /** Comment lines (heartbeats) and `retry:` values so far. */
  comments: string[];
  retries: number[];
  /** The body, for an answer that is not a stream (401, 503...). */
  body: string;
  /**
   * The next event (of `type`, when given) after the last one `next` returned; rejects after
   * `timeoutMs`, when the stream ends first, or when an event up to it breaks the shared contract.
   */
  next(type?: string, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Resolves when the server ends the stream (or the connection fails). */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

export interface OpenOptions {
  /** The Cookie header. */
  cookie?: string;
  headers?: Record<string, string>;
  /** Default /api/events. */
  path?: string;
  /** Called with each event as it is parsed (the benchmark's clock). */
  onEvent?: (event: ReceivedEvent) => void;
}

/** A Cookie header for cookies as factories' sessionCookiesFor returns them. */
export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');
}

/** Open an event stream; resolves once the status and headers have arrived. */
export function openEventStream(base: string, options: OpenOptions = {}): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}${options.path ?? '/api/events'}`,
      {
        agent: false,
        headers: {
          accept: 'text/event-stream',
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...options.headers,
        },
      },
      (response) => {
        response.setEncoding('utf8');
        let buffer = '';
        let ended = false;
        let cursor = 0;
        const waiters = new Set<() => void>();
        const wake = () => {
          for (const waiter of [...waiters]) waiter();
        };
        let markEnded: () => void = () => {};
        const endedPromise = new Promise<void>((done) => {
          markEnded = done;
        });
        const finish = () => {
          if (ended) return;
          ended = true;
          markEnded();
          wake();
        };
        const client: EventStreamClient = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          events: [],
          comments: [],
          retries: [],
          body: '',
          ended: endedPromise,
          isEnded: () => ended,
          close: () => {
            request.destroy();
            finish();
          },
          next(type, timeoutMs = 5_000) {
            return new Promise((done, fail) => {
              const check = () => {
                for (let i = cursor; i < client.events.length; i++) {
                  const event = client.events[i] as ReceivedEvent;
                  if (event.contractError) {
                    cursor = i + 1;
                    stop();
                    fail(new Error(event.contractError));
                    return;
                  }
                  if (type === undefined || event.type === type) {
                    cursor = i + 1;
                    stop();
                    done(event);
                    return;
                  }
                }
                if (ended) {
                  stop();
                  fail(new Error(`the stream ended before a${type ? ` '${type}'` : 'n'} event`));
                }
              };
              const timer = setTimeout(() => {
                stop();
                fail(new Error(`no${type ? ` '${type}'` : ''} event within ${timeoutMs} ms`));
              }, timeoutMs);
              const stop = () => {
                clearTimeout(timer);
                waiters.delete(check);
              };
              waiters.add(check);
              check();
            });
          },
        };
        const isStream = String(response.headers['content-type'] ?? '').startsWith('text/event-stream');
        response.on('data', (chunk: string) => {
          if (!isStream) {
            client.body += chunk;
            return;
          }
          buffer += chunk;
          let boundary = buffer.indexOf('\n\n');
          while (boundary >= 0) {
            const block = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary + 2);
            boundary = buffer.indexOf('\n\n');
            let id: string | undefined;
            let type = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) client.comments.push(line.slice(1).trim());
              else if (line.startsWith('id: ')) id = line.slice(4);
              else if (line.startsWith('event: ')) type = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
              else if (line.startsWith('retry: ')) client.retries.push(Number(line.slice(7)));
            }
            if (data.length === 0) continue;
            const parsed: unknown = JSON.parse(data.join('\n'));
            const contractError = contractErrorOf(type, parsed);
            const event: ReceivedEvent = {
              id,
              type,
              data: parsed,
              at: performance.now(),
              ...(contractError ? { contractError } : {}),
            };
            client.events.push(event);
            options.onEvent?.(event);
          }
          wake();
        });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
        resolve(client);
      },
    );
    request.on('error', reject);
  });
}
