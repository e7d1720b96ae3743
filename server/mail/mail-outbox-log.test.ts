import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { createLogger } from '../logger';
import { createUser } from '../test/factories';
import { openTestDatabase, testConfig } from '../test/helpers';

/** A log destination kept in memory. */
function memoryStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/**
 * Ask for a password reset on an app without SMTP_URL in `env`; the outbox's log line, and the
 * .eml file it names.
 */
async function resetMailIn(env: 'development' | 'production' | 'test') {
  const config = testConfig({
    NODE_ENV: env,
    PUBLIC_URL: 'http://barter.example',
  });
  const log = memoryStream();
  const { handle, drop } = await openTestDatabase();
  const app = await buildApp({ config, database: handle, logger: createLogger('info', log.stream) });
  try {
    await app.ready();
    await createUser(app.db, { email: 'outbox@example.com' });
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'outbox@example.com' },
    });
    expect(response.statusCode).toBe(202);
    const line = await vi.waitFor(() => {
      const found = log.lines().find((entry) => entry.msg === 'mail written to the outbox');
      if (!found) throw new Error('no outbox line yet');
      return found;
    });
    const file = String(line.file);
    expect(existsSync(file)).toBe(true);
    return {
      line,
      loggedText: log.lines().map((entry) => JSON.stringify(entry)),
      eml: readFileSync(file, 'utf8'),
    };
  } finally {
    await app.close();
    await drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

/** Issue 27: without SMTP_URL, reset links went to the log in production too (ADR 024, 053). */
describe('the outbox (no SMTP_URL) and the log', () => {
  it.each(['production', 'test'] as const)(
    'NODE_ENV=%s: the log names the file, never a live link',
    async (env) => {
      const { line, loggedText, eml } = await resetMailIn(env);
      expect(line.file).toMatch(/outbox\/[^/]+\.eml$/);
      expect(line).not.toHaveProperty('links');
      const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(eml.replace(/=\r?\n/g, ''))?.[1];
      expect(token).toBeTruthy();
      for (const text of loggedText) {
        expect(text).not.toContain('reset-password');
        expect(text).not.toContain(token as string);
      }
    },
  );

  it('NODE_ENV=development: the link is logged beside the file, for a local setup', async () => {
    const { line } = await resetMailIn('development');
    expect(line.file).toMatch(/outbox\/[^/]+\.eml$/);
    expect(line.links).toEqual([expect.stringMatching(/^http:\/\/barter\.example\/reset-password\?token=/)]);
  });
});
