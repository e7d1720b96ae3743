import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { serviceUnavailable } from '../../errors';

// Algorithm is a const enum, which isolatedModules cannot read at run time; 2 is Algorithm.Argon2id.
const ARGON2ID: Algorithm = 2;

/** OWASP's argon2id settings: 19 MiB, 2 passes, 1 lane (about 12 ms per hash here). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

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
 * Password hashing takes every core but one (ADR 045): argon2 runs on libuv's pool of four threads,
 * so a burst of sign-ins (ten wrong guesses at once are let through to the hash before the throttle
 * answers 429) would otherwise take both cores of a two-core machine from the event loop, and every
 * other request would wait. About a second of hashing may wait; beyond that a sign-in gets 503.
 */
const HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
const hashing = hashingLimit(HASH_CONCURRENCY, 64 * HASH_CONCURRENCY);

/** A PHC-format argon2id hash of the password. */
export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, OPTIONS));
}

let dummyHash: Promise<string> | null = null;

/**
 * Check a password against a stored hash. Without a stored hash (unknown e-mail, or an account that
 * signs in another way) it still spends the same work on a throwaway hash, so the answer's timing
 * does not tell which case it was; the result is then always false. Throws 503 when too many
 * passwords are waiting to be checked.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hash('not-a-real-password-just-equal-work', OPTIONS);
    const throwaway = await dummyHash;
    await hashing(() => verify(throwaway, password).catch(() => false));
    return false;
  }
  // A malformed stored hash is a broken account, not the visitor's fault: treat it as a mismatch.
  return hashing(() => verify(storedHash, password).catch(() => false));
}
