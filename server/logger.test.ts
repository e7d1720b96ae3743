import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { createLogger, scrubText, serializeError } from './logger';
import { openTestDatabase, testConfig } from './test/helpers';

const EMAIL = 'victoria.victim@refused.example';
const PASSWORD = 'Plum-Orchard-Lantern-42';
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$ZGlnZXN0ZGlnZXN0ZGlnZXN0ZGlnZXN0';

/** A log destination kept in memory: every line pino writes, as text. */
function memoryStream() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

/** What drizzle throws for a failed insert into users: the driver's error as `cause`, values in `params`. */
function failedUserInsert(): Error {
  const driverError = Object.assign(new Error('new row for relation "users" violates check constraint "x"'), {
    code: '23514',
    constraint: 'x',
    table: 'users',
    detail: `Failing row contains (1, ${EMAIL}, ${HASH}, Victoria).`,
    params: [EMAIL, HASH],
  });
  return new DrizzleQueryError(
    'insert into "users" ("email", "password_hash") values ($1, $2)',
    [EMAIL, HASH],
    driverError,
  );
}

describe('log redaction (issue 12 point 8)', () => {
  it('keeps SQL, codes and constraint names of a database error, and drops its values', () => {
    const serialized = JSON.stringify(serializeError(failedUserInsert()));
    expect(serialized).not.toContain(EMAIL);
    expect(serialized).not.toContain('$argon2');
    expect(serialized).toContain('insert into \\"users\\"');
    expect(serialized).toMatch(/\\n {4}at /);
    expect(serialized).toContain('23514');
    expect(serialized).toContain('"constraint":"x"');
  });

  it('scrubs e-mail addresses, hashes and key values from free text', () => {
    const text = scrubText(
      `Key (email)=(${EMAIL}) already exists; hash ${HASH}; contact ${EMAIL.toUpperCase()}`,
    );
    expect(text).not.toMatch(/victoria|argon2/i);
    expect(text).toContain('Key (email)=([Redacted]) already exists');
    // A path with "@" in it is not an e-mail address: stack frames stay readable.
    const frame = '    at q.Ce (file:///app/node_modules/@electric-sql/pglite/dist/index.js:5:1759)';
    expect(scrubText(frame)).toBe(frame);
  });

  it('redacts secret fields, nested one level, and message strings built from errors', () => {
    const log = memoryStream();
    const logger = createLogger('info', log.stream);
    logger.info({ email: EMAIL, user: { passwordHash: HASH, password: PASSWORD } }, 'signed up');
    logger.warn(`could not save: ${failedUserInsert().message}`);
    logger.error({ error: failedUserInsert() }, 'under another key');
    logger.info({ req: { method: 'GET', url: '/api/auth/google/callback?code=abc123&state=xyz' } }, 'r');
    const text = log.text();
    for (const secret of [EMAIL, PASSWORD, '$argon2', 'abc123', 'xyz']) expect(text).not.toContain(secret);
    expect(text).toContain('signed up');
  });
});

/**
 * The real app on the real database: a registration whose insert the database refuses (a check
 * constraint added for the test) is a 500 that logs the failure, and the log must hold neither the
 * e-mail, nor the argon2 hash, nor the password. The same request through a plain pino logger
 * leaks them, which shows the check can fail.
 */
describe('a failed insert through the app', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  let config: Config;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase());
    config = testConfig({ LOG_LEVEL: 'info' });
    await database.db.execute(
      sql.raw(
        `ALTER TABLE users ADD CONSTRAINT log_probe_refuses CHECK (email NOT LIKE '%@refused.example') NOT VALID`,
      ),
    );
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  const registerWith = async (logger: FastifyBaseLogger, email: string) => {
    const app = await buildApp({ config, database, logger });
    apps.push(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { firstName: 'Victoria', lastName: 'Victim', email, password: PASSWORD },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(email);
  };

  it('logs the failure without the e-mail, the hash or the password', async () => {
    const log = memoryStream();
    await registerWith(createLogger('info', log.stream), EMAIL);
    const text = log.text();
    expect(text).toContain('request failed');
    expect(text).toContain('log_probe_refuses');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain('victoria.victim');
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain(PASSWORD);
  });

  it('(control) a plain pino logger does leak them', async () => {
    const log = memoryStream();
    const email = `other.${EMAIL}`;
    await registerWith(pino({ level: 'info' }, log.stream), email);
    expect(log.text()).toContain(email);
    expect(log.text()).toContain('$argon2');
  });
});
