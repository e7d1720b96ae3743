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
 * State is in process memory, bounded (MAX_ENTRIES per map, least recently failed dropped first)
 * and forgotten FORGET_AFTER_MS after the last failure; several server processes each keep their
 * own, like the per-IP limits of @fastify/rate-limit.
 */

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

export class LoginThrottle {
  private readonly pairs = new FailureMap();
  private readonly accounts = new FailureMap();

  /** @param accountFreeFailures failures on one account before unknown devices are delayed. */
  constructor(private readonly accountFreeFailures: number) {}

  /**
   * Decide on an attempt to sign into `account` (the normalised e-mail) from `source`; `knownDevice`
   * when the source is a known device of the account. When allowed, the attempt is counted as a
   * failure at once (see the file comment).
   */
  begin(account: string, source: string, knownDevice: boolean, now = Date.now()): ThrottleVerdict {
    const pairKey = pairKeyOf(account, source);
    const pair = this.pairs.get(pairKey, now);
    let wait = pair ? pair.lastFailureAt + delayAfter(pair.failures, FREE_FAILURES) - now : 0;
    let scope: 'source' | 'account' = 'source';
    const total = knownDevice ? undefined : this.accounts.get(account, now);
    if (total) {
      const accountWait = total.lastFailureAt + delayAfter(total.failures, this.accountFreeFailures) - now;
      if (accountWait > wait) {
        wait = accountWait;
        scope = 'account';
      }
    }
    if (wait > 0) return { allowed: false, retryAfterMs: wait, scope };

    const failures = (pair?.failures ?? 0) + 1;
    this.pairs.set(pairKey, { failures, lastFailureAt: now });
    const countedOnAccount = !knownDevice && failures <= FREE_FAILURES;
    if (countedOnAccount) {
      this.accounts.set(account, { failures: (total?.failures ?? 0) + 1, lastFailureAt: now });
    }
    return { allowed: true, attempt: { account, source, countedOnAccount } };
  }

  /** The attempt's password was right: clear the source's failures and take back its account count. */
  succeeded(attempt: LoginAttempt, now = Date.now()): void {
    this.pairs.delete(pairKeyOf(attempt.account, attempt.source));
    if (!attempt.countedOnAccount) return;
    const total = this.accounts.get(attempt.account, now);
    if (!total) return;
    if (total.failures <= 1) this.accounts.delete(attempt.account);
    else this.accounts.set(attempt.account, { ...total, failures: total.failures - 1 });
  }

  /** Records held (for tests of the bound). */
  get size(): { pairs: number; accounts: number } {
    return { pairs: this.pairs.size, accounts: this.accounts.size };
  }
}

function pairKeyOf(account: string, source: string): string {
  return `${account}\n${source}`;
}
