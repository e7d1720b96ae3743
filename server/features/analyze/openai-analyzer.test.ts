import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GOODS_CATEGORIES, SERVICE_CATEGORIES } from '#common/categories.ts';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { toDataUrl } from '../../test/images';
import { matchCategory } from './openai-analyzer';
import { bookCoverPng } from './test-images';

/** A request the fake service received. */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    response_format: { type: string };
    messages: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  };
}

type Reply = (response: ServerResponse) => void;

/** What the fake sends next: a chat-completions answer whose message content is `content`. */
const completion =
  (content: string, status = 200): Reply =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        model: 'test-vision',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      }),
    );
  };

const TIMEOUT_MS = 400;

/**
 * A small OpenAI-compatible service on loopback: it records each POST /v1/chat/completions and
 * answers with whatever `reply` says (by default, a good answer).
 */
describe('POST /api/analyze-image (AI_PROVIDER=openai, against a local fake)', () => {
  let server: Server;
  let t: TestApp;
  let cookies: Record<string, string>;
  let received: Received[] = [];
  let reply: Reply;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        received.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: JSON.parse(raw || '{}'),
        });
        reply(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    t = await buildTestApp({
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1/`,
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_MODEL: 'test-vision',
      OPENAI_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received = [];
    reply = completion(
      JSON.stringify({
        title: 'The Hobbit by J. R. R. Tolkien',
        description: 'A paperback copy of The Hobbit in good condition.',
        isService: false,
        category: 'books',
        estimatedValue: 8.5,
        confidence: { title: 0.9, description: 0.8, category: 0.95, estimatedValue: 0.4 },
      }),
    );
  });

  const analyze = async () =>
    t.app.inject({
      method: 'POST',
      url: '/api/analyze-image',
      payload: { image: toDataUrl(await bookCoverPng(), 'image/png') },
      cookies,
    });

  it('sends the photo as a modest JPEG with a prompt constrained to the category lists', async () => {
    const response = await analyze();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      provider: 'openai',
      title: 'The Hobbit by J. R. R. Tolkien',
      description: 'A paperback copy of The Hobbit in good condition.',
      category: 'books',
      isService: false,
      estimatedValue: 8.5,
      confidence: { title: 0.9, description: 0.8, category: 0.95, estimatedValue: 0.4 },
    });

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test-key');
    expect(request?.body.model).toBe('test-vision');
    expect(request?.body.response_format).toEqual({ type: 'json_object' });
    const [system, user] = request?.body.messages ?? [];
    expect(system?.role).toBe('system');
    for (const category of [...GOODS_CATEGORIES, ...SERVICE_CATEGORIES])
      expect(system?.content).toContain(JSON.stringify(category));
    expect(user?.role).toBe('user');
    const imagePart = ((user?.content ?? []) as Array<{ type: string; image_url?: { url: string } }>).find(
      (part) => part.type === 'image_url',
    );
    const url = imagePart?.image_url?.url ?? '';
    expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const sent = await sharp(Buffer.from(url.split(',')[1] ?? '', 'base64')).metadata();
    expect(sent.format).toBe('jpeg');
    expect(Math.max(sent.width ?? 0, sent.height ?? 0)).toBeLessThanOrEqual(1024);
    expect(sent.exif).toBeUndefined();
  });

  it('sets isService for a service category', async () => {
    reply = completion(JSON.stringify({ title: 'Guitar lessons', isService: true, category: 'lessons' }));
    const response = await analyze();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      provider: 'openai',
      title: 'Guitar lessons',
      category: 'lessons',
      isService: true,
      confidence: {},
    });
  });

  it('leaves out a category that is not in the list, keeping the rest of the answer', async () => {
    reply = completion(
      JSON.stringify({
        title: 'A fine book',
        category: 'literature',
        confidence: { title: 0.7, category: 0.9 },
      }),
    );
    const response = await analyze();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ provider: 'openai', title: 'A fine book', confidence: { title: 0.7 } });
  });

  it('turns nulls into absent fields', async () => {
    reply = completion(
      JSON.stringify({
        title: null,
        description: null,
        category: null,
        estimatedValue: null,
        isService: false,
      }),
    );
    const response = await analyze();
    expect(response.json()).toEqual({ provider: 'openai', confidence: {} });
  });

  it('answers 502 AI_UNAVAILABLE when the answer is not JSON', async () => {
    reply = completion('Sure! This looks like a book called The Hobbit.');
    const response = await analyze();
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      message:
        'The photo analysis service gave an answer we could not use. Please fill in the details yourself.',
      code: 'AI_UNAVAILABLE',
    });
  });

  it('answers 502 when the JSON has the wrong shape or the envelope is not chat completions', async () => {
    reply = completion(JSON.stringify({ title: 42 }));
    expect((await analyze()).statusCode).toBe(502);
    reply = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"result":"ok"}');
    };
    const envelope = await analyze();
    expect(envelope.statusCode).toBe(502);
    expect(envelope.json().code).toBe('AI_UNAVAILABLE');
  });

  it('answers 502 when the service answers with an HTTP error', async () => {
    reply = completion('{"error":{"message":"model overloaded"}}', 503);
    const response = await analyze();
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      message: 'The photo analysis service is unavailable right now. Please fill in the details yourself.',
      code: 'AI_UNAVAILABLE',
    });
  });

  it(`answers 502 when the service does not answer within OPENAI_TIMEOUT_MS (${TIMEOUT_MS} ms)`, async () => {
    reply = () => {
      // Never answer; the connection is closed when the test server stops.
    };
    const started = Date.now();
    const response = await analyze();
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      message: 'The photo analysis service did not answer in time. Please fill in the details yourself.',
      code: 'AI_UNAVAILABLE',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a bad photo before calling the service', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/analyze-image',
      payload: { image: toDataUrl(Buffer.from('not a photo'), 'image/png') },
      cookies,
    });
    expect(response.statusCode).toBe(400);
    expect(received).toHaveLength(0);
  });
});

describe('matchCategory', () => {
  it('accepts categories from the right list, spelled any case', () => {
    expect(matchCategory(' Books ', false)).toEqual({ category: 'books', isService: false });
    expect(matchCategory('lessons', true)).toEqual({ category: 'lessons', isService: true });
    // In both lists: goods unless the answer says service.
    expect(matchCategory('household', undefined)).toEqual({ category: 'household', isService: false });
    expect(matchCategory('household', true)).toEqual({ category: 'household', isService: true });
    // A service-only category without isService is still a service.
    expect(matchCategory('legal', null)).toEqual({ category: 'legal', isService: true });
  });

  it('drops categories from the wrong list or from no list', () => {
    expect(matchCategory('books', true)).toBeNull();
    expect(matchCategory('legal', false)).toBeNull();
    expect(matchCategory('literature', false)).toBeNull();
    expect(matchCategory('', false)).toBeNull();
  });
});
