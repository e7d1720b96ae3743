import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openPostgres } from '../db/postgres';
import { buildTestApp, injectHonouringRetryAfter, type TestApp, testConfig } from '../test/helpers';
import { toApiError } from './error-handler';

describe('error shape for bad input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/api/verify-password',
      payload,
      headers: { 'content-type': contentType },
    });

  it('malformed JSON is a 400 INVALID_JSON', async () => {
    const response = await post('{"password":');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.', code: 'INVALID_JSON' });
  });

  it('a broken percent-encoding in the path is a 400 in the same error shape', async () => {
    for (const url of ['/photos/%ED%A0%80', '/api/items/%E0%A4%A', '/api/feed/%']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 400 });
      expect(response.json()).toEqual({
        message: 'The address is not valid: it has a broken percent-encoding.',
        code: 'BAD_REQUEST',
      });
    }
  });

  it('a wrong type is a 400 naming the field', async () => {
    const response = await post(JSON.stringify({ password: 42 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_FAILED');
    expect(response.json().message).toContain('password');
  });

  it('an unknown field is a 400 naming it', async () => {
    const response = await post(JSON.stringify({ password: 'x', admin: true }));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('admin');
  });

  it('an unsupported content type is a 415', async () => {
    const response = await post('password=x', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body over the limit is a 413', async () => {
    const response = await post(JSON.stringify({ password: 'x'.repeat(16 * 1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large.', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an unknown API route is a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'No route for GET /api/no-such-thing.', code: 'NOT_FOUND' });
  });

  it('a wrong method on a known route is a 404 JSON, never a 500', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/gate' });
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
  });

  it('publishes the OpenAPI document generated from the route schemas', async () => {
    // A costly route (ADR 051): refused with 503 and Retry-After while the database's line is long,
    // which a loaded CI host can make it at any moment; a client asks again when told to.
    const response = await injectHonouringRetryAfter(t.app, { method: 'GET', url: '/api/docs' });
    expect({ status: response.statusCode, body: response.statusCode === 200 ? '' : response.body }).toEqual({
      status: 200,
      body: '',
    });
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(
      doc.paths['/api/verify-password'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('password');
  });
});

describe('database unreachable', () => {
  it('answers 503 with a generic message and no internals, on readyz and on queries', async () => {
    const config = testConfig();
    // Nothing listens on port 1: every connection is refused, like a stopped server.
    const database = openPostgres({
      url: 'postgres://nobody@127.0.0.1:1/none',
      poolMax: 1,
      statementTimeoutMs: 1000,
    });
    const app = await buildApp({ config, database });
    app.get('/api/test-query', async () => {
      await database.ping();
      return { ok: true };
    });
    await app.ready();
    try {
      for (const url of ['/readyz', '/api/test-query']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({
          message: 'The service is temporarily unavailable. Please try again shortly.',
          code: 'SERVICE_UNAVAILABLE',
        });
        expect(response.body).not.toContain('127.0.0.1');
        expect(response.headers['retry-after']).toBe('5');
      }
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('a bug is a 500 that does not leak its message', async () => {
    const t = await buildTestApp();
    try {
      // Routes can only be added before ready(), so build a second app on the same database.
      const app = await buildApp({ config: t.config, database: t.database });
      app.get('/api/boom', async () => {
        throw new Error('secret internals at /srv/db:5432');
      });
      const response = await app.inject({ method: 'GET', url: '/api/boom' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        message: 'Something went wrong on our side.',
        code: 'INTERNAL_ERROR',
      });
      await app.close();
    } finally {
      await t.close();
    }
  });
});

describe('a transaction PostgreSQL ended to break a conflict', () => {
  it('is a 503 to send again (deadlock, serialization failure), also when wrapped; other SQL errors stay 500', () => {
    const driverError = (code: string) => Object.assign(new Error('deadlock detected'), { code });
    // Drizzle wraps the driver's error as the cause of its own.
    const wrapped = (code: string) => new Error('Failed query: UPDATE items', { cause: driverError(code) });
    for (const error of [driverError('40P01'), wrapped('40P01'), driverError('40001'), wrapped('40001')]) {
      expect(toApiError(error)).toEqual({
        status: 503,
        body: {
          message: 'The service is temporarily unavailable. Please try again shortly.',
          code: 'SERVICE_UNAVAILABLE',
        },
      });
    }
    expect(toApiError(wrapped('42P01')).status).toBe(500);
    expect(toApiError(wrapped('23503')).status).toBe(500);
  });
});
