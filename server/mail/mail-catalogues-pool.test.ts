import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LOCALES } from '#common/locales.ts';
import { checkMailCatalogues } from './mail-i18n';
import { MAIL_TEXT } from './mail-messages';

/**
 * The e-mail catalogues (ADR 060) are parsed in the worker pool once the server listens (ADR 101),
 * not on the main thread while it starts. How long the pool's thread takes is not judged here (on a
 * loaded host a thread at nice 10 waits).
 */
describe('the e-mail catalogues read in the worker pool', () => {
  it('a listening server asks the pool for them, once; the pool compiles what the main thread would', async () => {
    // The server project's files share a module cache (vitest.config.ts, `isolate: false`): another
    // file's server may have asked the pool already. Fresh modules: a pool and a reading of their own.
    vi.resetModules();
    const { buildTestApp } = await import('../test/helpers');
    const pool = await import('../workers/pool');
    const mail = await import('./mail-i18n');
    // Tasks asked for so far (waiting, running or done): a task counts from the moment it is asked
    // for, however long a busy host takes to start the thread that runs it.
    const asked = () => {
      const stats = pool.workerPoolStats();
      return stats.running + stats.queued + stats.completed;
    };
    expect(asked()).toBe(0);
    const t = await buildTestApp();
    try {
      expect(asked()).toBe(0);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      await expect.poll(asked, { timeout: 10_000 }).toBe(1);
      // Asking again gives the same reading: no second task.
      expect(mail.readMailCataloguesInPool()).toBe(mail.readMailCataloguesInPool());
      expect(asked()).toBe(1);
    } finally {
      await t.close();
      await pool.closeWorkerPool();
    }
    // What the task runs in the thread (`readMailCatalogues`), here: each language's catalogue as the
    // main thread compiles it at a mail that comes first.
    const inPool = mail.readMailCatalogues();
    for (const locale of LOCALES) {
      expect(Object.keys(inPool[locale]).length).toBeGreaterThan(Object.keys(MAIL_TEXT).length);
      expect(inPool[locale]).toEqual(mail.readMailCatalogue(locale));
    }
    expect(mail.mailI18n('es')._(MAIL_TEXT.greeting.id, { name: 'Ana' })).toBe('Hola, Ana:');
  });

  it('a catalogue that is not there stops the start, naming it', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'bh-no-catalogues-'));
    try {
      expect(() => checkMailCatalogues(empty)).toThrow(/e-mail catalogue .*en\.po cannot be read/);
      expect(() => checkMailCatalogues()).not.toThrow();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
