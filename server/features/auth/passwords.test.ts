import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors';
import { hashingLimit, hashPassword, passwordPool, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('checks a password against its hash, and a missing hash never matches', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse battery!')).toBe(false);
    expect(await verifyPassword(null, 'correct horse battery')).toBe(false);
    expect(await verifyPassword('not-a-phc-string', 'correct horse battery')).toBe(false);
  });

  it('hashes in the password pool, off the thread that answers requests (ADR 120)', async () => {
    const pool = passwordPool();
    const before = pool.stats().completed;
    const stored = await hashPassword('a pool-checked password');
    expect(await verifyPassword(stored, 'a pool-checked password')).toBe(true);
    expect(await verifyPassword(null, 'a pool-checked password')).toBe(false);
    // The hash, the check, and the throwaway check an unknown e-mail costs (its hash made once).
    expect(pool.stats().completed - before).toBeGreaterThanOrEqual(3);
  });

  it('runs at most `concurrency` at once, and answers 503 once `maxWaiting` are waiting', async () => {
    const limited = hashingLimit(2, 3);
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const work = () =>
      new Promise<number>((resolve) => {
        running++;
        most = Math.max(most, running);
        releases.push(() => {
          running--;
          resolve(running);
        });
      });
    // Two run, three wait; the sixth is refused at once without running.
    const accepted = Array.from({ length: 5 }, () => limited(work));
    const refused = limited(work);
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ statusCode: 503 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(running).toBe(2);
    // Each one finished lets a waiting one start, never more than two at a time.
    while (releases.length) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(accepted);
    expect(most).toBe(2);
    expect(running).toBe(0);
  });
});
