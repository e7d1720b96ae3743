import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../scripts/precompress';
import { buildApp } from '../app';
import { openTestDatabase, testConfig } from '../test/helpers';
import { cookieName } from './security';
import { SESSION_COOKIE } from './session';
import { CURRENT_USER_PRELOAD, chooseEncoding } from './web';

// Big enough to be compressed (scripts/precompress.ts skips files under 1 KB).
const SCRIPT = `${'export const neighbours = ["Ann", "Bo", "Cy"];\n'.repeat(60)}console.log(1);\n`;
const INDEX_HTML = `<!doctype html><title>Barterhood</title><div id="root"></div><!--${' padding'.repeat(200)} -->`;

describe('serving the built web app', () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'bh-dist-'));
  let app: Awaited<ReturnType<typeof buildApp>>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg/>');
    // Each language's first-screen messages, as scripts/split-catalogues.ts writes them (ADR 036).
    mkdirSync(path.join(dist, 'locales'));
    for (const locale of ['en', 'es']) {
      writeFileSync(
        path.join(dist, 'locales', `${locale}-first.json`),
        JSON.stringify({ messages: { a: locale } }),
      );
    }
    // What the build's precompress plugin does after vite build.
    await precompressDirectory(dist);
    const database = await openTestDatabase();
    drop = database.drop;
    app = await buildApp({ config: testConfig(), database: database.handle, serveWeb: true, webDist: dist });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  it('caches hashed assets for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves index.html for client routes, never cached', async () => {
    for (const url of ['/', '/terms', '/no/such/page', '/register?email=a%40b.co']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('answers missing files and unknown API routes with a JSON 404', async () => {
    for (const url of ['/assets/missing-123.js', '/api/nothing']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
  });

  it('sends a hashed script brotli-compressed to a browser that accepts brotli', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers.vary).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a browser that accepts only gzip, and the file itself to one that accepts neither', async () => {
    const gzipped = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br;q=0' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);

    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toContain('accept-encoding');
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.body).toBe(SCRIPT);
    }
  });

  it('sends a file too small to compress as it is, and never a compressed copy at its own path', async () => {
    expect(existsSync(path.join(dist, 'assets', 'tiny-abc123.js.br'))).toBe(false);
    const tiny = await app.inject({
      method: 'GET',
      url: '/assets/tiny-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('console.log(1)');

    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it('sends the app page compressed for client routes, never cached', async () => {
    const brotli = await app.inject({
      method: 'GET',
      url: '/profile',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toContain('text/html');
    expect(brotli.headers['cache-control']).toBe('no-cache');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(INDEX_HTML);

    const gzipped = await app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it("asks the browser to fetch the current member with a member's page, not a visitor's", async () => {
    const session = cookieName(app.config, SESSION_COOKIE);
    const member = await app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html' },
      cookies: { [session]: 'a-session-token' },
    });
    expect(member.headers.link).toBe(`${EN_PRELOAD}, ${CURRENT_USER_PRELOAD}`);
    expect(member.headers.vary).toContain('cookie');
    const visitor = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(visitor.headers.link).toBe(EN_PRELOAD);
  });

  it('serves the messages under a fixed name, revalidated on every visit', async () => {
    const response = await app.inject({ method: 'GET', url: '/locales/es-first.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ messages: { a: 'es' } });
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it("preloads the catalogue of the visitor's language: their choice, else their browser's", async () => {
    const page = (headers: Record<string, string>, cookies: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html', ...headers }, cookies });
    expect((await page({ 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' })).headers.link).toBe(ES_PRELOAD);
    expect((await page({ 'accept-language': 'fr-CA, es;q=0.5, en;q=0.7' })).headers.link).toBe(EN_PRELOAD);
    expect((await page({ 'accept-language': 'es;q=0, en' })).headers.link).toBe(EN_PRELOAD);
    expect((await page({ 'accept-language': 'de, fr' })).headers.link).toBe(EN_PRELOAD);
    // The member's choice wins over the browser; a made-up value is ignored.
    expect((await page({ 'accept-language': 'en-US' }, { barterhood_locale: 'es' })).headers.link).toBe(
      ES_PRELOAD,
    );
    expect((await page({ 'accept-language': 'es' }, { barterhood_locale: '../x' })).headers.link).toBe(
      ES_PRELOAD,
    );
    const hostile = await page({ 'accept-language': `${'x;q=,'.repeat(5000)}\u0000` });
    expect(hostile.statusCode).toBe(200);
    expect(hostile.headers.link).toBe(EN_PRELOAD);
    expect((await page({})).headers.vary).toContain('accept-language');
  });
});

const EN_PRELOAD = '</locales/en-first.json>; rel=preload; as=fetch; crossorigin';
const ES_PRELOAD = '</locales/es-first.json>; rel=preload; as=fetch; crossorigin';

describe('choosing a content encoding', () => {
  it('prefers brotli, then gzip, as the browser allows', () => {
    expect(chooseEncoding('gzip, deflate, br', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip;q=0.8', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('*', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('GZIP, BR', ['gzip'])).toBe('gzip');
  });

  it('chooses none without a header, for identity, or when nothing acceptable exists', () => {
    expect(chooseEncoding(undefined, ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('identity', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('br', ['gzip'])).toBeNull();
    expect(chooseEncoding('*;q=0', ['br', 'gzip'])).toBeNull();
  });
});
