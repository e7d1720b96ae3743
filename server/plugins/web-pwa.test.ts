import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { openTestDatabase, testConfig } from '../test/helpers';

// What vite-plugin-pwa writes into the build (ADR 034), big enough for the precompress step to matter.
const SERVICE_WORKER = `${'self.addEventListener("fetch", () => {});\n'.repeat(40)}`;
const MANIFEST = JSON.stringify({
  name: 'Barterhood',
  short_name: 'Barterhood',
  start_url: '/',
  display: 'standalone',
});

describe('serving the installable app', () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'bh-pwa-'));
  let app: Awaited<ReturnType<typeof buildApp>>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    mkdirSync(path.join(dist, 'icons'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Barterhood</title><div id="root"></div>',
    );
    writeFileSync(path.join(dist, 'sw.js'), SERVICE_WORKER);
    writeFileSync(path.join(dist, 'workbox-9504f110.js'), SERVICE_WORKER);
    writeFileSync(path.join(dist, 'manifest.webmanifest'), MANIFEST);
    writeFileSync(path.join(dist, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const database = await openTestDatabase();
    drop = database.drop;
    app = await buildApp({ config: testConfig(), database: database.handle, serveWeb: true, webDist: dist });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await drop();
  });

  it('serves the service worker as a script that browsers check for updates on every visit', async () => {
    for (const url of ['/sw.js', '/workbox-9504f110.js']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^(?:text|application)\/javascript/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves the web app manifest with its own content type, never cached long', async () => {
    const response = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json()).toMatchObject({ name: 'Barterhood', display: 'standalone' });
  });

  it('serves the icons as PNG images', async () => {
    const response = await app.inject({ method: 'GET', url: '/icons/icon-192.png' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
  });

  it('never answers a missing service worker with the app page', async () => {
    const response = await app.inject({ method: 'GET', url: '/service-worker.js' });
    expect(response.statusCode).toBe(404);
  });
});
