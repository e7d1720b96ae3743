import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'bh-config-'));

describe('settings (docs/contract.md)', () => {
  it('has the contract defaults', () => {
    const dataDir = tmp();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      sitePassword: 'barter',
      publicUrl: 'http://localhost:5000',
      supportEmail: 'support@barterhood.example',
      legalEmail: 'legal@barterhood.example',
      licensingEmail: 'licensing@barterhood.example',
      demoLogin: true,
      seedDemo: true,
      google: null,
      databaseUrl: undefined,
    });
    expect(config.ai.provider).toBe('local');
    expect(config.geocoder.provider).toBe('offline');
  });

  it('bounds live event streams and their heartbeat (ADR 020)', () => {
    const dataDir = tmp();
    expect(loadConfig({ DATA_DIR: dataDir }).events).toEqual({
      streamsPerMember: 8,
      streamsMax: 10_000,
      heartbeatSeconds: 25,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir, EVENT_STREAMS_PER_MEMBER: '2', EVENT_HEARTBEAT_SECONDS: '5' }).events,
    ).toMatchObject({ streamsPerMember: 2, heartbeatSeconds: 5 });
    expect(() => loadConfig({ DATA_DIR: dataDir, EVENT_HEARTBEAT_SECONDS: '301' })).toThrow(
      'EVENT_HEARTBEAT_SECONDS must be at most 300',
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, EVENT_STREAMS_MAX: '0' })).toThrow(ConfigError);
  });

  it('generates the session secret once and keeps it in DATA_DIR', () => {
    const dataDir = tmp();
    const first = loadConfig({ DATA_DIR: dataDir }).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim()).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first);
  });

  it('an empty SITE_PASSWORD turns the gate off; other blank settings mean the default', () => {
    const config = loadConfig({ DATA_DIR: tmp(), SITE_PASSWORD: '', PORT: '' });
    expect(config.sitePassword).toBe('');
    expect(config.port).toBe(5000);
  });

  it('PUBLIC_URL follows PORT and loses a trailing slash', () => {
    expect(loadConfig({ DATA_DIR: tmp(), PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: tmp(), PUBLIC_URL: 'https://barter.example/' }).publicUrl).toBe(
      'https://barter.example',
    );
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ SUPPORT_EMAIL: 'not-an-email' }, /SUPPORT_EMAIL/],
    [{ DEMO_LOGIN: 'maybe' }, /DEMO_LOGIN/],
    [{ AI_PROVIDER: 'openai' }, /OPENAI_BASE_URL/],
    [{ GEOCODER: 'nominatim' }, /NOMINATIM_URL/],
    [{ GOOGLE_CLIENT_ID: 'id-only' }, /GOOGLE_CLIENT_SECRET/],
  ])('refuses %o with a one-line explanation', (env, message) => {
    const attempt = () => loadConfig({ DATA_DIR: tmp(), ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('production refuses a missing SESSION_SECRET and the default site password', () => {
    const secret = 'x'.repeat(40);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp(), SITE_PASSWORD: 'own' })).toThrow(
      /SESSION_SECRET/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp(), SESSION_SECRET: secret })).toThrow(
      /SITE_PASSWORD/,
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: tmp(),
        SESSION_SECRET: secret,
        SITE_PASSWORD: 'barter',
      }),
    ).toThrow(/SITE_PASSWORD/);
    expect(
      loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp(), SESSION_SECRET: secret, SITE_PASSWORD: 'own' })
        .sitePassword,
    ).toBe('own');
  });
});
