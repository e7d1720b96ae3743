import { type Algorithm, hash, verify } from '@node-rs/argon2';

// Algorithm is a const enum, which isolatedModules cannot read at run time; 2 is Algorithm.Argon2id.
const ARGON2ID: Algorithm = 2;

/** OWASP's argon2id settings: 19 MiB, 2 passes, 1 lane (about 12 ms per hash here). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** A PHC-format argon2id hash of the password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | null = null;

/**
 * Check a password against a stored hash. Without a stored hash (unknown e-mail, or an account that
 * signs in another way) it still spends the same work on a throwaway hash, so the answer's timing
 * does not tell which case it was; the result is then always false.
 */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword('not-a-real-password-just-equal-work');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    // A malformed stored hash is a broken account, not the visitor's fault: treat it as a mismatch.
    return false;
  }
}
