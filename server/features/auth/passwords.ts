import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import { serviceUnavailable } from '../../errors';
import { dedicatedPool, type RunOptions, type WorkerPool, WorkerPoolError } from '../../workers/pool';

/**
 * Runs argon2 work at most `concurrency` at a time, and refuses it (503, `Retry-After`) once
 * `maxWaiting` are already waiting, instead of queueing without end.
 */
export function hashingLimit(concurrency: number, maxWaiting: number) {
  const limit = pLimit(concurrency);
  return <T>(work: () => Promise<T>): Promise<T> => {
    if (limit.pendingCount >= maxWaiting) return Promise.reject(serviceUnavailable());
    return limit(work);
  };
}

/**
 * Password hashing takes every core but one (ADR 045), in threads of its own below the ones that
 * answer members (ADR 120): a burst of sign-ins (ten wrong guesses at once are let through to the
 * hash before the throttle answers 429) then takes only the CPU that serving leaves, on a two-core
 * machine as on a host other programs load. About a second of hashing may wait; beyond that a
 * sign-in gets 503.
 */
const HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
const hashing = hashingLimit(HASH_CONCURRENCY, 64 * HASH_CONCURRENCY);

/**
 * The longest one hash may take in its thread, a loaded host's and a fresh thread's start included;
 * past it the thread is ended and the sign-in answered 503.
 */
const HASH_TIMEOUT_MS = 15_000;

/** The threads argon2 runs in: a pool of their own, so a check never waits behind a solve. */
export function passwordPool(): WorkerPool {
  return dedicatedPool('passwords', HASH_CONCURRENCY);
}

/** Argon2 work in the password pool's threads: 503 with Retry-After when the pool cannot run it. */
function inPasswordPool<T>(work: (pool: WorkerPool, options: RunOptions) => Promise<T>): Promise<T> {
  return hashing(async () => {
    try {
      return await work(passwordPool(), { timeoutMs: HASH_TIMEOUT_MS });
    } catch (error) {
      if (error instanceof WorkerPoolError) throw Object.assign(serviceUnavailable(), { cause: error });
      throw error;
    }
  });
}

/** A PHC-format argon2id hash of the password. */
export function hashPassword(password: string): Promise<string> {
  return inPasswordPool((pool, options) => pool.run('hashPassword', { password }, options));
}

let dummyHash: Promise<string> | null = null;

/**
 * Check a password against a stored hash. Without a stored hash (unknown e-mail, or an account that
 * signs in another way) it still spends the same work on a throwaway hash, so the answer's timing
 * does not tell which case it was; the result is then always false. A malformed stored hash is a
 * broken account, not the visitor's fault: a mismatch. Throws 503 when too many passwords are
 * waiting to be checked, or the pool could not check it.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password-just-equal-work').catch((error: unknown) => {
      dummyHash = null;
      throw error;
    });
    const stored = await dummyHash;
    await inPasswordPool((pool, options) => pool.run('verifyPassword', { stored, password }, options));
    return false;
  }
  return inPasswordPool((pool, options) =>
    pool.run('verifyPassword', { stored: storedHash, password }, options),
  );
}
