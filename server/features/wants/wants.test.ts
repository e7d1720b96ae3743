import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Want } from '#common/schemas/listings.ts';
import { wants } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

const ladder = {
  title: ' Step ladder ',
  description: 'Tall enough for a ceiling.',
  category: 'tools',
  isService: false,
  maxValue: 30,
};

describe('wants API', () => {
  let t: TestApp;
  let owner: UserRow;
  let neighbour: UserRow;
  let ownerCookies: Record<string, string>;
  let neighbourCookies: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.app.db);
    neighbour = await createUser(t.app.db);
    ownerCookies = await sessionCookiesFor(t.app, owner);
    neighbourCookies = await sessionCookiesFor(t.app, neighbour);
  });
  afterAll(() => t.close());

  const call = (options: InjectOptions) => t.app.inject(options);
  const create = (payload: Record<string, unknown>, cookies = ownerCookies) =>
    call({ method: 'POST', url: '/api/wants', payload, cookies });
  const myWants = async (cookies = ownerCookies) => {
    const response = await call({ method: 'GET', url: '/api/wants/my', cookies });
    expect(response.statusCode).toBe(200);
    return response.json<Want[]>();
  };
  const patch = (id: number | string, payload: Record<string, unknown>, cookies = ownerCookies) =>
    call({ method: 'PATCH', url: `/api/wants/${id}`, payload, cookies });
  const remove = (id: number | string, cookies = ownerCookies) =>
    call({ method: 'DELETE', url: `/api/wants/${id}`, cookies });
  const storedRow = async (id: number) => {
    const [row] = await t.app.db.select().from(wants).where(eq(wants.id, id));
    return row ?? null;
  };

  it('answers 401 on every route when signed out', async () => {
    const existing = await createWant(t.app.db, { userId: owner.id });
    for (const options of [
      { method: 'GET', url: '/api/wants/my' },
      { method: 'POST', url: '/api/wants', payload: ladder },
      { method: 'PATCH', url: `/api/wants/${existing.id}`, payload: { title: 'x' } },
      { method: 'DELETE', url: `/api/wants/${existing.id}` },
    ] as InjectOptions[]) {
      const response = await call(options);
      expect(response.statusCode, `${options.method} ${options.url}`).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect(await storedRow(existing.id)).not.toBeNull();
  });

  describe('POST /api/wants', () => {
    it('adds the want and answers 201 with it', async () => {
      const response = await create(ladder);
      expect(response.statusCode).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const want = response.json<Want>();
      expect(want).toEqual({
        id: expect.any(Number),
        title: 'Step ladder',
        description: 'Tall enough for a ceiling.',
        category: 'tools',
        isService: false,
        maxValue: 30,
        isActive: true,
        fulfilledAt: null,
        createdAt: expect.any(String),
      });
      expect(await storedRow(want.id)).toMatchObject({ userId: owner.id });
    });

    it('takes the spec body with only title and category filled in', async () => {
      const response = await create({
        title: 'Dog walking',
        description: '',
        category: 'pet',
        isService: true,
        maxValue: '',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ description: null, maxValue: null, isService: true });
    });

    it.each([
      [
        'a goods category on a service',
        { isService: true, category: 'tools' },
        'category: Choose a category from the list.',
      ],
      [
        'a service category on goods',
        { isService: false, category: 'pet' },
        'category: Choose a category from the list.',
      ],
      ['a negative max value', { maxValue: -10 }, 'maxValue: Max value must be a positive number.'],
      ['three decimals', { maxValue: '3.141' }, 'maxValue: Max value can have at most two decimal places.'],
      ['no title', { title: undefined }, 'title: Title is required.'],
      ['no category', { category: '' }, 'category: Category is required.'],
      ['unknown fields', { userId: 'x' }, 'Unknown field: userId.'],
    ])('refuses %s with 400', async (_label, change, message) => {
      const before = (await myWants()).length;
      const response = await create({ ...ladder, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, code: 'VALIDATION_FAILED' });
      expect((await myWants()).length).toBe(before);
    });

    it('refuses an inappropriate want with a message containing "not appropriate"', async () => {
      const before = (await myWants()).length;
      for (const payload of [
        { ...ladder, title: 'Looking for a hookup tonight' },
        { ...ladder, title: 'Party supplies', description: 'Need some cocaine and weed' },
      ]) {
        const response = await create(payload);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'CONTENT_NOT_ALLOWED' });
        expect(response.json<{ message: string }>().message).toContain('not appropriate');
      }
      expect((await myWants()).length).toBe(before);
    });
  });

  describe('GET /api/wants/my', () => {
    it("lists only the member's own wants, active and inactive, newest first", async () => {
      const member = await createUser(t.app.db);
      const cookies = await sessionCookiesFor(t.app, member);
      const older = await createWant(t.app.db, {
        userId: member.id,
        createdAt: new Date(Date.now() - 60_000),
      });
      const inactive = await createWant(t.app.db, { userId: member.id, isActive: false });
      await createWant(t.app.db, { userId: neighbour.id });
      expect((await myWants(cookies)).map((want) => want.id)).toEqual([inactive.id, older.id]);
    });
  });

  describe('PATCH /api/wants/:id', () => {
    it('edits, deactivates and reactivates', async () => {
      const want = (await create(ladder)).json<Want>();
      const edited = await patch(want.id, { title: 'Tall ladder', maxValue: '45.50', description: '' });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        title: 'Tall ladder',
        maxValue: 45.5,
        description: null,
        category: 'tools',
      });
      expect((await patch(want.id, { isActive: false })).json()).toMatchObject({ isActive: false });
      expect((await myWants()).find((listed) => listed.id === want.id)).toMatchObject({ isActive: false });
      expect((await patch(want.id, { isActive: true })).json()).toMatchObject({ isActive: true });
      expect((await patch(want.id, {})).json()).toMatchObject({ title: 'Tall ladder' });
    });

    it('checks the category against the list that applies after the change', async () => {
      const want = (await create(ladder)).json<Want>();
      expect((await patch(want.id, { isService: true })).json()).toEqual({
        message: 'category: Choose a category from the list.',
        code: 'VALIDATION_FAILED',
      });
      expect((await patch(want.id, { isService: true, category: 'labor/move' })).statusCode).toBe(200);
    });

    it('moderates changed wording', async () => {
      const want = (await create(ladder)).json<Want>();
      const response = await patch(want.id, { description: 'Looking for a hookup tonight' });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toContain('not appropriate');
      expect(await storedRow(want.id)).toMatchObject({ description: ladder.description });
    });
  });

  describe('DELETE /api/wants/:id', () => {
    it('deletes the want: 204, then 404', async () => {
      const want = (await create(ladder)).json<Want>();
      expect((await remove(want.id)).statusCode).toBe(204);
      expect(await storedRow(want.id)).toBeNull();
      expect((await remove(want.id)).statusCode).toBe(404);
    });
  });

  it("another member's want cannot be read, edited or deleted: 404 as if it did not exist", async () => {
    const want = (await create({ ...ladder, title: 'Private ladder' })).json<Want>();
    expect((await myWants(neighbourCookies)).some((listed) => listed.id === want.id)).toBe(false);
    const missing = await patch(2_147_483_647, { title: 'x' }, neighbourCookies);
    expect(missing.json()).toEqual({ message: 'Want not found.', code: 'NOT_FOUND' });
    for (const response of [
      await patch(want.id, { title: 'Mine now' }, neighbourCookies),
      await patch(want.id, { isActive: false }, neighbourCookies),
      await remove(want.id, neighbourCookies),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    expect(await storedRow(want.id)).toMatchObject({
      title: 'Private ladder',
      isActive: true,
      userId: owner.id,
    });
  });

  it.each(['abc', '2.5', '0', '99999999999'])('malformed id %s is a 400, never a 500', async (id) => {
    expect((await patch(id, { title: 'x' })).statusCode).toBe(400);
    expect((await remove(id)).statusCode).toBe(400);
  });
});
