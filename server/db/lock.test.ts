import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock';

describe('data directory lock', () => {
  it('refuses a second holder while the first is alive, and frees on release', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bh-lock-'));
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      writeFileSync(path.join(dir, 'barterhood.lock'), String(child.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(`(pid ${child.pid}) is already using ${dir}`);
    } finally {
      child.kill();
    }
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bh-lock-'));
    writeFileSync(path.join(dir, 'barterhood.lock'), '999999999');
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'barterhood.lock'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'barterhood.lock'))).toBe(false);
  });
});
