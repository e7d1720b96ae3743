import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, mapTileOrigin } from '../../config';
import { buildTestApp, type TestApp } from '../../test/helpers';

const TEMPLATE = 'https://tiles.example.org/osm/{z}/{x}/{y}.png';

describe('MAP_TILE_URL (ADR 032)', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bh-tiles-')), ...env });

  it('is off by default: no tile server, no map', () => {
    expect(load({}).mapTiles).toBeNull();
    expect(load({ MAP_TILE_URL: '' }).mapTiles).toBeNull();
  });

  it('takes a tile URL template and its credit, and knows the one origin tiles come from', () => {
    expect(
      load({ MAP_TILE_URL: TEMPLATE, MAP_TILE_ATTRIBUTION: '© OpenStreetMap contributors' }).mapTiles,
    ).toEqual({
      urlTemplate: TEMPLATE,
      attribution: '© OpenStreetMap contributors',
      origin: 'https://tiles.example.org',
    });
    expect(mapTileOrigin('http://127.0.0.1:8080/{z}/{y}/{x}.webp?key=abc')).toBe('http://127.0.0.1:8080');
  });

  it.each([
    'tiles.example.org/{z}/{x}/{y}.png',
    'https://tiles.example.org/{z}/{x}.png',
    'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
    'ftp://tiles.example.org/{z}/{x}/{y}.png',
    'javascript:alert(1)//{z}/{x}/{y}',
    'https://user:secret@tiles.example.org/{z}/{x}/{y}.png',
  ])('refuses %j with a one-line explanation', (value) => {
    const attempt = () => load({ MAP_TILE_URL: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/MAP_TILE_URL must be an http\(s\) tile URL template/);
  });
});

describe('GET /api/site and the CSP with a tile server', () => {
  let withTiles: TestApp;
  let without: TestApp;
  beforeAll(async () => {
    withTiles = await buildTestApp({ MAP_TILE_URL: TEMPLATE, MAP_TILE_ATTRIBUTION: '© Example' });
    without = await buildTestApp();
  });
  afterAll(async () => {
    await withTiles.close();
    await without.close();
  });

  it('tells the pages the tile server, and lets its images through the CSP', async () => {
    const site = await withTiles.app.inject({ method: 'GET', url: '/api/site' });
    expect(site.statusCode).toBe(200);
    expect(site.json().mapTiles).toEqual({ urlTemplate: TEMPLATE, attribution: '© Example' });
    const csp = String(site.headers['content-security-policy']);
    expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/tiles\.example\.org(;|$)/);
    // Scripts and connections stay our own.
    expect(csp).not.toMatch(/(script|connect)-src[^;]*tiles\.example\.org/);
  });

  it('without one: no map, and no other image origin', async () => {
    const site = await without.app.inject({ method: 'GET', url: '/api/site' });
    expect(site.json().mapTiles).toBeNull();
    expect(String(site.headers['content-security-policy'])).toMatch(/img-src 'self' data: blob:(;|$)/);
  });
});
