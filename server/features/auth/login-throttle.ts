/**
 * Sign-in throttling by account and source together, with exponential delays instead of a lock
 * (ADR 016). A source is the browser's known-device id when it holds a known-device cookie for the
 * account (known-device.ts), else the IP address.
 *
 * - Per (account, source): the first FREE_FAILURES failures cost nothing, then each failure makes
 *   that source wait 1 s, 2 s, 4 s ... up to MAX_DELAY_MS before its next attempt on the account.
 *   An attacker's failures therefore slow only the attacker's own address.
 * - Per account (many addresses guessing one account): each unknown source's failures count towards
 *   the account, at most FREE_FAILURES each, so one address alone never trips it. Past the
 *   account's free failures (LOGIN_ACCOUNT_RATE_LIMIT), sources that are not a known device of the
 *   account wait the same exponential delay. A known device skips this part entirely.
 * - An attempt counts as failed the moment it is let through, so parallel guesses cannot slip past
 *   the count; a success takes its own count back and clears the source's failures.
 *
 * State is in PostgreSQL when the server runs on it, shared by every process (SharedLoginThrottle,
 * ADR 044); on PGlite (one process) in memory, bounded (MAX_ENTRIES per map, least recently failed
 * dropped first). Either way a record is forgotten FORGET_AFTER_MS after its last failure.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { textArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { periodicJob } from '../../jobs/jobs-plugin';

/** Failures per (account, source) before any delay; also the most one source adds to the account. */
export const FREE_FAILURES = 5;
/** The longest delay (15 minutes): reached after ten delayed failures. */
export const MAX_DELAY_MS = 15 * 60 * 1000;
/** A record is dropped this long after its last failure. */
export const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
/** At most this many records per map (about 100 bytes each). */
export const MAX_ENTRIES = 100_000;

/** How long to wait after the last of `failures` failures when `free` of them cost nothing. */
export function delayAfter(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(1000 * 2 ** (failures - free - 1), MAX_DELAY_MS);
}

interface FailureRecord {
  failures: number;
  lastFailureAt: number;
}

/** A Map bounded in size and age; the least recently written record goes first. */
class FailureMap {
  private readonly records = new Map<string, FailureRecord>();

  get(key: string, now: number): FailureRecord | undefined {
    const record = this.records.get(key);
    if (record && now - record.lastFailureAt >= FORGET_AFTER_MS) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  set(key: string, record: FailureRecord): void {
    // Delete first so the key moves to the end of the Map's order (most recent).
    this.records.delete(key);
    this.records.set(key, record);
    if (this.records.size > MAX_ENTRIES) {
      const oldest = this.records.keys().next().value;
      if (oldest !== undefined) this.records.delete(oldest);
    }
  }

  delete(key: string): void {
    this.records.delete(key);
  }

  get size(): number {
    return this.records.size;
  }
}

/** One attempt let through; hand it back to `succeeded` when the password was right. */
export interface LoginAttempt {
  readonly account: string;
  readonly source: string;
  readonly countedOnAccount: boolean;
}

export type ThrottleVerdict =
  | { allowed: true; attempt: LoginAttempt }
  | {
      allowed: false;
      retryAfterMs: number;
      /** Which limit answered: this source's failures, or the whole account's. */
      scope: 'source' | 'account';
    };

/** What one attempt decides: the verdict and, when let through, the records it writes. */
interface Decision {
  verdict: ThrottleVerdict;
  pair?: FailureRecord;
  account?: FailureRecord;
}

/**
 * The rule itself (see the file comment), on the records as they stand: `pair` is this source's on
 * the account, `total` the account's (read only for a source that is not a known device).
 */
function decide(
  attempt: { account: string; source: string; knownDevice: boolean },
  pair: FailureRecord | undefined,
  total: FailureRecord | undefined,
  accountFreeFailures: number,
  now: number,
): Decision {
  let wait = pair ? pair.lastFailureAt + delayAfter(pair.failures, FREE_FAILURES) - now : 0;
  let scope: 'source' | 'account' = 'source';
  if (total) {
    const accountWait = total.lastFailureAt + delayAfter(total.failures, accountFreeFailures) - now;
    if (accountWait > wait) {
      wait = accountWait;
      scope = 'account';
    }
  }
  if (wait > 0) return { verdict: { allowed: false, retryAfterMs: wait, scope } };
  const failures = (pair?.failures ?? 0) + 1;
  const countedOnAccount = !attempt.knownDevice && failures <= FREE_FAILURES;
  return {
    verdict: {
      allowed: true,
      attempt: { account: attempt.account, source: attempt.source, countedOnAccount },
    },
    pair: { failures, lastFailureAt: now },
    account: countedOnAccount ? { failures: (total?.failures ?? 0) + 1, lastFailureAt: now } : undefined,
  };
}

/** The account's record after a success took its count back; null when nothing is left. */
function afterSuccess(total: FailureRecord): FailureRecord | null {
  return total.failures <= 1 ? null : { ...total, failures: total.failures - 1 };
}

/** What the sign-in route asks, whichever throttle it has. */
export interface SignInThrottle {
  /**
   * Decide on an attempt to sign into `account` (the normalised e-mail) from `source`; `knownDevice`
   * when the source is a known device of the account. When allowed, the attempt is counted as a
   * failure at once (see the file comment).
   */
  begin(account: string, source: string, knownDevice: boolean, now?: number): Promise<ThrottleVerdict>;
  /** The attempt's password was right: clear the source's failures and take back its account count. */
  succeeded(attempt: LoginAttempt, now?: number): Promise<void>;
}

/** The throttle in this process's memory: PGlite (one process) and the unit tests. */
export class LoginThrottle {
  private readonly pairs = new FailureMap();
  private readonly accounts = new FailureMap();

  /** @param accountFreeFailures failures on one account before unknown devices are delayed. */
  constructor(private readonly accountFreeFailures: number) {}

  /** SignInThrottle.begin, synchronously: parallel attempts are counted one after another. */
  begin(account: string, source: string, knownDevice: boolean, now = Date.now()): ThrottleVerdict {
    const pairKey = pairKeyOf(account, source);
    const decision = decide(
      { account, source, knownDevice },
      this.pairs.get(pairKey, now),
      knownDevice ? undefined : this.accounts.get(account, now),
      this.accountFreeFailures,
      now,
    );
    if (decision.pair) this.pairs.set(pairKey, decision.pair);
    if (decision.account) this.accounts.set(account, decision.account);
    return decision.verdict;
  }

  /** SignInThrottle.succeeded, synchronously. */
  succeeded(attempt: LoginAttempt, now = Date.now()): void {
    this.pairs.delete(pairKeyOf(attempt.account, attempt.source));
    if (!attempt.countedOnAccount) return;
    const total = this.accounts.get(attempt.account, now);
    if (!total) return;
    const left = afterSuccess(total);
    if (left) this.accounts.set(attempt.account, left);
    else this.accounts.delete(attempt.account);
  }

  /** As a SignInThrottle. */
  asSignInThrottle(): SignInThrottle {
    return {
      begin: async (account, source, knownDevice, now) => this.begin(account, source, knownDevice, now),
      succeeded: async (attempt, now) => this.succeeded(attempt, now),
    };
  }

  /** Records held (for tests of the bound). */
  get size(): { pairs: number; accounts: number } {
    return { pairs: this.pairs.size, accounts: this.accounts.size };
  }
}

/** A record as read back: failures and the last failure in epoch milliseconds. */
type FailureRow = { key: string; failures: number; at: number };

/** The records under `keys` not yet forgotten at `now`. */
async function readFailures(tx: Db, keys: string[], now: number): Promise<Map<string, FailureRecord>> {
  const rows = await queryRows<FailureRow>(
    tx,
    sql`SELECT key, failures::int AS failures, (extract(epoch FROM last_failure_at) * 1000)::float8 AS at
        FROM login_failures
        WHERE key = ANY(${textArray(keys)}::text[]) AND last_failure_at > to_timestamp(${(now - FORGET_AFTER_MS) / 1000})`,
  );
  return new Map(rows.map((row) => [row.key, { failures: row.failures, lastFailureAt: Math.round(row.at) }]));
}

async function writeFailure(tx: Db, key: string, record: FailureRecord | null): Promise<void> {
  if (!record) {
    await tx.execute(sql`DELETE FROM login_failures WHERE key = ${key}`);
    return;
  }
  await tx.execute(
    sql`INSERT INTO login_failures (key, failures, last_failure_at)
        VALUES (${key}, ${record.failures}, to_timestamp(${record.lastFailureAt / 1000}))
        ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_failure_at = excluded.last_failure_at`,
  );
}

/** Hold the account's lock until the transaction ends: its attempts are decided one at a time. */
async function lockAccount(tx: Db, accountKey: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${accountKey}, 2026))`);
}

/**
 * The throttle in PostgreSQL, shared by every server process on it (issue 18, ADR 044): the same rule
 * on the same records, kept in `login_failures`. Each attempt reads and writes its account's records
 * in one transaction holding a lock on the account (an advisory lock on its key's hash), so attempts
 * on one account from any processes are decided one after another, as in memory. Records are
 * forgotten FORGET_AFTER_MS after their last failure (read as absent, deleted by the hourly sweep).
 */
export class SharedLoginThrottle implements SignInThrottle {
  constructor(
    private readonly db: Db,
    private readonly accountFreeFailures: number,
  ) {}

  async begin(
    account: string,
    source: string,
    knownDevice: boolean,
    now = Date.now(),
  ): Promise<ThrottleVerdict> {
    const pairKey = `pair:${pairKeyOf(account, source)}`;
    const accountKey = `account:${account}`;
    return this.db.transaction(async (tx) => {
      await lockAccount(tx, accountKey);
      const found = await readFailures(tx, [pairKey, accountKey], now);
      const decision = decide(
        { account, source, knownDevice },
        found.get(pairKey),
        knownDevice ? undefined : found.get(accountKey),
        this.accountFreeFailures,
        now,
      );
      if (decision.pair) await writeFailure(tx, pairKey, decision.pair);
      if (decision.account) await writeFailure(tx, accountKey, decision.account);
      return decision.verdict;
    });
  }

  async succeeded(attempt: LoginAttempt, now = Date.now()): Promise<void> {
    const accountKey = `account:${attempt.account}`;
    await this.db.transaction(async (tx) => {
      await lockAccount(tx, accountKey);
      await writeFailure(tx, `pair:${pairKeyOf(attempt.account, attempt.source)}`, null);
      if (!attempt.countedOnAccount) return;
      const total = (await readFailures(tx, [accountKey], now)).get(accountKey);
      if (total) await writeFailure(tx, accountKey, afterSuccess(total));
    });
  }
}

/** Failure records forgotten FORGET_AFTER_MS ago (the hourly sweep, PostgreSQL). */
export async function purgeForgottenFailures(db: Db, now = Date.now()): Promise<void> {
  await db.execute(
    sql`DELETE FROM login_failures WHERE last_failure_at <= to_timestamp(${(now - FORGET_AFTER_MS) / 1000})`,
  );
}

function pairKeyOf(account: string, source: string): string {
  return `${account}\n${source}`;
}

/**
 * The sign-in throttle for the app's database: shared in PostgreSQL (with an hourly sweep of
 * forgotten records, once across processes), in memory on PGlite.
 */
export function signInThrottle(app: FastifyInstance): SignInThrottle {
  const accountFreeFailures = app.config.rateLimits.loginPerAccount;
  if (app.database.kind !== 'postgres') return new LoginThrottle(accountFreeFailures).asSignInThrottle();
  periodicJob(app, {
    name: 'login-failures-sweep',
    seconds: 60 * 60,
    run: async () => {
      try {
        await purgeForgottenFailures(app.db);
      } catch (error) {
        app.log.warn({ err: error }, 'could not sweep forgotten sign-in failures');
      }
    },
  });
  return new SharedLoginThrottle(app.db, accountFreeFailures);
}
