/**
 * "Showing results for guitar" (issue 31, ADR 089): the search text with each corrected word as a
 * listed title spells it, from the feed's own correction (resolveSearch).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowingFor } from '#common/schemas/feed.ts';
import { createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

describe('showing results for', () => {
  let t: TestApp;
  let cookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.app.db;
    const owner = await createUser(db);
    cookies = await sessionCookiesFor(t.app, await createUser(db));
    await createItem(db, { userId: owner.id, title: 'Bike tune-up', isService: true, category: 'services' });
    await createItem(db, { userId: owner.id, title: 'Acoustic guitar with case', category: 'music instr' });
    await createItem(db, { userId: owner.id, title: 'Mountain bicycle', category: 'bikes' });
  });
  afterAll(() => t.close());

  const ask = (q: string, as: Record<string, string> | null = cookies) =>
    t.app.inject({
      method: 'GET',
      url: '/api/search/showing-for',
      query: { q },
      ...(as ? { cookies: as } : {}),
    });
  const shown = async (q: string) => {
    const response = await ask(q);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as ShowingFor).showingFor;
  };

  it('writes each corrected word as a title spells it, the rest as typed', async () => {
    expect(await shown('gitar')).toBe('guitar');
    expect(await shown('bike tunup')).toBe('bike tune-up');
    expect(await shown('Bike  tuneup')).toBe('Bike tune-up');
    // The lexeme is 'bicycl'; the title's word is what a neighbour reads.
    expect(await shown('bicyle')).toBe('bicycle');
  });

  it('is null when nothing was corrected', async () => {
    expect(await shown('guitar')).toBeNull();
    expect(await shown('bike tune-up')).toBeNull();
    expect(await shown('the')).toBeNull();
    expect(await shown('zzzzqqqq')).toBeNull();
  });

  it('refuses empty, over-long and control-character text with a 400, and a signed-out caller with a 401', async () => {
    for (const q of ['', '   ', 'x'.repeat(101), 'gi\u0000tar']) {
      const response = await ask(q);
      expect(response.statusCode, JSON.stringify(q)).toBe(400);
    }
    expect((await ask('gitar', null)).statusCode).toBe(401);
  });
});
