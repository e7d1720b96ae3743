import { describe, expect, it } from 'vitest';
import {
  delayAfter,
  FORGET_AFTER_MS,
  FREE_FAILURES,
  LoginThrottle,
  MAX_DELAY_MS,
  MAX_ENTRIES,
} from './login-throttle';

const T0 = 1_700_000_000_000;

describe('delayAfter', () => {
  it('is free for the first failures, then doubles from one second up to 15 minutes', () => {
    const delays = Array.from({ length: 18 }, (_, i) => delayAfter(i + 1, FREE_FAILURES));
    expect(delays.slice(0, FREE_FAILURES)).toEqual(Array(FREE_FAILURES).fill(0));
    expect(delays.slice(FREE_FAILURES, FREE_FAILURES + 5)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(Math.max(...delays)).toBe(MAX_DELAY_MS);
    expect(delayAfter(10_000, FREE_FAILURES)).toBe(MAX_DELAY_MS);
  });
});

describe('LoginThrottle', () => {
  const fail = (throttle: LoginThrottle, account: string, source: string, now: number, known = false) => {
    const verdict = throttle.begin(account, source, known, now);
    if (!verdict.allowed) throw new Error(`refused: ${JSON.stringify(verdict)}`);
    return verdict.attempt;
  };

  it('counts parallel attempts at once, so they cannot all slip through before the first fails', () => {
    const throttle = new LoginThrottle(10);
    const verdicts = Array.from({ length: 20 }, () => throttle.begin('a@x', 'ip:1', false, T0));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(FREE_FAILURES + 1);
  });

  it('caps one source at one guess per 15 minutes, and forgets it a day after its last failure', () => {
    const throttle = new LoginThrottle(10);
    let now = T0;
    for (let i = 0; i < 40; i++) {
      const verdict = throttle.begin('a@x', 'ip:1', false, now);
      if (!verdict.allowed) now += verdict.retryAfterMs;
      else now += 1;
    }
    const waiting = throttle.begin('a@x', 'ip:1', false, now);
    expect(waiting).toMatchObject({ allowed: false, scope: 'source' });
    if (!waiting.allowed) expect(waiting.retryAfterMs).toBeLessThanOrEqual(MAX_DELAY_MS);
    expect(throttle.begin('a@x', 'ip:1', false, now + FORGET_AFTER_MS).allowed).toBe(true);
  });

  it('counts at most FREE_FAILURES per source towards the account', () => {
    const throttle = new LoginThrottle(2 * FREE_FAILURES);
    let now = T0;
    // Two sources, each exhausted: the account is not yet slowed for a third.
    for (const source of ['ip:1', 'ip:2']) {
      for (let i = 0; i < 30; i++) {
        const verdict = throttle.begin('a@x', source, false, now);
        now += verdict.allowed ? 1 : verdict.retryAfterMs;
      }
    }
    expect(throttle.begin('a@x', 'ip:3', false, now).allowed).toBe(true);
    const fourth = throttle.begin('a@x', 'ip:4', false, now);
    expect(fourth).toMatchObject({ allowed: false, scope: 'account', retryAfterMs: 1000 });
    // A known device is not held back by the account's count.
    expect(throttle.begin('a@x', 'device:d1', true, now).allowed).toBe(true);
  });

  it("takes a success's own count back and clears its source", () => {
    const throttle = new LoginThrottle(1);
    fail(throttle, 'a@x', 'ip:1', T0);
    const right = fail(throttle, 'a@x', 'ip:2', T0);
    expect(throttle.begin('a@x', 'ip:3', false, T0).allowed).toBe(false);
    throttle.succeeded(right, T0);
    expect(throttle.begin('a@x', 'ip:3', false, T0).allowed).toBe(true);
  });

  it('keeps its memory bounded', () => {
    const throttle = new LoginThrottle(10);
    for (let i = 0; i < MAX_ENTRIES + 50; i++) throttle.begin(`user${i}@x`, 'ip:1', false, T0);
    expect(throttle.size.pairs).toBe(MAX_ENTRIES);
    expect(throttle.size.accounts).toBe(MAX_ENTRIES);
  });
});
