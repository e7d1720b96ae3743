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
    [{ WEB_PUSH_PUBLIC_KEY: `B${'a'.repeat(86)}` }, /WEB_PUSH_PUBLIC_KEY and WEB_PUSH_PRIVATE_KEY/],
    [{ WEB_PUSH_PUBLIC_KEY: 'short', WEB_PUSH_PRIVATE_KEY: 'a'.repeat(43) }, /WEB_PUSH_PUBLIC_KEY/],
    [{ WEB_PUSH_SUBJECT: 'support@example.org' }, /WEB_PUSH_SUBJECT/],
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

  it('STORAGE_URL: unset keeps photos in DATA_DIR; s3:// names a bucket on AWS or on any S3 host', () => {
    const storage = (url?: string) =>
      loadConfig({ DATA_DIR: tmp(), ...(url === undefined ? {} : { STORAGE_URL: url }) }).photoStorage;
    expect(storage()).toEqual({ kind: 'local' });
    expect(storage('')).toEqual({ kind: 'local' });
    expect(storage('s3://barter-photos?region=eu-west-1')).toEqual({
      kind: 's3',
      bucket: 'barter-photos',
      endpoint: undefined,
      region: 'eu-west-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    // A secret with "/" and "+" (as AWS makes them), percent-encoded.
    expect(storage('s3+http://minio-key:ab%2Fc%2Bd@127.0.0.1:9000/photos')).toEqual({
      kind: 's3',
      bucket: 'photos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio-key', secretAccessKey: 'ab/c+d' },
    });
    expect(storage('s3://objects.example.org/photos/?forcePathStyle=false')).toMatchObject({
      endpoint: 'https://objects.example.org',
      bucket: 'photos',
      forcePathStyle: false,
    });
  });

  it('STORAGE_URL: a bad value stops start-up with one line that never repeats the secret', () => {
    const secret = 'VerySecret123';
    const cases: Array<[string, RegExp]> = [
      ['https://bucket.s3.amazonaws.com', /must be s3:\/\/BUCKET/],
      ['s3://', /must be s3:\/\/BUCKET/],
      [`s3://key:${secret}@host/a/b`, /the bucket's name alone/],
      [`s3+http://key:${secret}@host:9000`, /a host needs a bucket/],
      [`s3://key:${secret}@host/Bad_Bucket`, /bucket name must be 3 to 63/],
      [`s3://key@host/photos`, /both the access key and the secret/],
      [`s3://key:${secret}%E0%A4@host/photos`, /broken percent-encoding/],
      [`s3://key:${secret}@host/photos?region=eu west`, /region must look like/],
      [`s3://key:${secret}@host/photos?pathStyle=true`, /unknown option "pathStyle"/],
      [`s3://key:${secret}@host/photos?forcePathStyle=yes`, /forcePathStyle must be true or false/],
      [`s3://key:a/${secret}@host/photos`, /bucket name|bucket's name alone|not a URL/],
    ];
    for (const [url, message] of cases) {
      let thrown: unknown;
      try {
        loadConfig({ DATA_DIR: tmp(), STORAGE_URL: url });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, url).toBeInstanceOf(ConfigError);
      const text = (thrown as Error).message;
      expect(text, url).toMatch(/^Invalid setting STORAGE_URL: /);
      expect(text, url).toMatch(message);
      expect(text, url).not.toContain(secret);
      expect(text, url).not.toContain('\n');
    }
  });
});
