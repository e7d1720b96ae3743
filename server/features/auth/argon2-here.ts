import { type Algorithm, hashSync, verifySync } from '@node-rs/argon2';

/**
 * argon2id on the calling thread: the password pool's threads (passwords.ts, ADR 120), which run
 * below the threads that answer members. Synchronous on purpose: @node-rs/argon2's promise versions
 * hand the work to libuv's shared pool, whose threads keep the process's priority.
 */

// Algorithm is a const enum, which isolatedModules cannot read at run time; 2 is Algorithm.Argon2id.
const ARGON2ID: Algorithm = 2;

/** OWASP's argon2id settings: 19 MiB, 2 passes, 1 lane (about 12 ms per hash here). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** A PHC-format argon2id hash of the password. */
export function hashHere(password: string): string {
  return hashSync(password, OPTIONS);
}

/** Whether the password matches the stored hash; a malformed stored hash never matches. */
export function verifyHere(stored: string, password: string): boolean {
  try {
    return verifySync(stored, password);
  } catch {
    return false;
  }
}
