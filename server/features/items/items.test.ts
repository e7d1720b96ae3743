import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '#common/schemas/listings.ts';
import { items } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { createBarterRequest, createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { formBody } from '../../test/forms';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { solidImage, toDataUrl } from '../../test/images';

const drill = {
  title: '  Cordless drill ',
  description: 'Works well, two batteries.',
  category: 'tools',
  isService: false,
  imageUrl: null,
  estimatedValue: 45.5,
  isActive: true,
};

describe('items API', () => {
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
    call({ method: 'POST', url: '/api/items', payload, cookies });
  const myItems = async (cookies = ownerCookies) => {
    const response = await call({ method: 'GET', url: '/api/items/my', cookies });
    expect(response.statusCode).toBe(200);
    return response.json<Item[]>();
  };
  const patch = (id: number | string, payload: Record<string, unknown>, cookies = ownerCookies) =>
    call({ method: 'PATCH', url: `/api/items/${id}`, payload, cookies });
  const remove = (id: number | string, cookies = ownerCookies) =>
    call({ method: 'DELETE', url: `/api/items/${id}`, cookies });
  const storedRow = async (id: number) => {
    const [row] = await t.app.db.select().from(items).where(eq(items.id, id));
    return row ?? null;
  };

  describe('signed out', () => {
    it('answers 401 on every route, before looking at the body', async () => {
      const existing = await createItem(t.app.db, { userId: owner.id });
      for (const options of [
        { method: 'GET', url: '/api/items/my' },
        { method: 'POST', url: '/api/items', payload: drill },
        { method: 'POST', url: '/api/items', payload: { nonsense: true } },
        { method: 'PATCH', url: `/api/items/${existing.id}`, payload: { title: 'Mine now' } },
        { method: 'DELETE', url: `/api/items/${existing.id}` },
      ] as InjectOptions[]) {
        const response = await call(options);
        expect(response.statusCode, `${options.method} ${options.url}`).toBe(401);
        expect(response.json()).toEqual({ message: 'Please sign in to continue.', code: 'UNAUTHORIZED' });
      }
      expect(await storedRow(existing.id)).toMatchObject({ title: existing.title });
    });
  });

  describe('POST /api/items', () => {
    it('lists the item for the member and answers 201 with it', async () => {
      const response = await create(drill);
      expect(response.statusCode).toBe(201);
      expect(response.headers['cache-control']).toBe('no-store');
      const item = response.json<Item>();
      expect(item).toEqual({
        id: expect.any(Number),
        title: 'Cordless drill',
        description: 'Works well, two batteries.',
        category: 'tools',
        isService: false,
        imageUrl: null,
        thumbnailUrl: null,
        photos: [],
        condition: null,
        estimatedValue: 45.5,
        isActive: true,
        moderation: null,
        isReserved: false,
        traded: null,
        allowedActions: ['edit', 'hide', 'delete'],
        // Confirmed when listed; no "Still available?" open (ADR 088).
        confirmedAt: expect.any(String),
        stale: null,
        viewCount: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await storedRow(item.id)).toMatchObject({ userId: owner.id, title: 'Cordless drill' });
    });

    it('takes the minimal body of the form: defaults for service, value and active', async () => {
      const response = await create({
        title: 'Guitar lessons',
        description: 'Beginners welcome.',
        category: 'lessons',
        isService: true,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ isService: true, estimatedValue: null, isActive: true });
    });

    it('takes the estimated value as input text, blank meaning none', async () => {
      expect((await create({ ...drill, estimatedValue: '12.50' })).json()).toMatchObject({
        estimatedValue: 12.5,
      });
      expect((await create({ ...drill, estimatedValue: '' })).json()).toMatchObject({ estimatedValue: null });
      expect((await create({ ...drill, estimatedValue: 99_999_999.99 })).json()).toMatchObject({
        estimatedValue: 99_999_999.99,
      });
    });

    it.each([
      [
        'a goods category on a service',
        { isService: true, category: 'tools' },
        'category: Choose a category from the list.',
      ],
      [
        'a service category on goods',
        { isService: false, category: 'lessons' },
        'category: Choose a category from the list.',
      ],
      ['an unknown category', { category: 'weapons' }, 'category: Choose a category from the list.'],
      [
        'a negative value',
        { estimatedValue: -1 },
        'estimatedValue: Estimated value must be a positive number.',
      ],
      [
        'three decimals',
        { estimatedValue: 10.125 },
        'estimatedValue: Estimated value can have at most two decimal places.',
      ],
      [
        'a value beyond decimal(10,2)',
        { estimatedValue: 100_000_000 },
        'estimatedValue: Estimated value must be less than 100,000,000.',
      ],
      ['a blank title', { title: '   ' }, 'title: Title is required.'],
      ['no description', { description: undefined }, 'description: Description is required.'],
      ['unknown fields', { userId: 'someone-else', viewCount: 1000 }, 'Unknown field: userId, viewCount.'],
      [
        'a photo that is a link',
        { imageUrl: 'https://example.test/x.jpg' },
        'imageUrl: Choose a photo (JPEG, PNG or WebP).',
      ],
    ])('refuses %s with 400', async (_label, change, message) => {
      const before = (await myItems()).length;
      const response = await create({ ...drill, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message, code: 'VALIDATION_FAILED' });
      expect((await myItems()).length).toBe(before);
    });

    it('refuses wording that breaks the Terms', async () => {
      const response = await create({ ...drill, title: 'Weed and cocaine for sale' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'CONTENT_NOT_ALLOWED',
        reason: 'drugs-alcohol',
        field: 'title',
      });
      expect(response.json<{ message: string }>().message).toContain('not appropriate');
    });

    it('refuses a phone number or e-mail saying where contact details go, and in which field (issue 28)', async () => {
      for (const description of ['Call me on 503-555-0199', 'Write to dee@example.com']) {
        const response = await create({ ...drill, description });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          code: 'CONTENT_NOT_ALLOWED',
          reason: 'contact-details',
          field: 'description',
          message:
            "This wording is not appropriate for Barterhood: please keep phone numbers, e-mail addresses and social media out of it; share contact details in the barter's conversation.",
        });
      }
    });
  });

  describe('GET /api/items/my', () => {
    it("lists only the member's own items, active and inactive, newest first", async () => {
      const member = await createUser(t.app.db);
      const cookies = await sessionCookiesFor(t.app, member);
      const older = await createItem(t.app.db, {
        userId: member.id,
        createdAt: new Date(Date.now() - 60_000),
      });
      const inactive = await createItem(t.app.db, { userId: member.id, isActive: false });
      await createItem(t.app.db, { userId: neighbour.id });
      const listed = await myItems(cookies);
      expect(listed.map((item) => item.id)).toEqual([inactive.id, older.id]);
      expect(listed[0]).toMatchObject({ isActive: false });
    });

    it('says which items an accepted barter holds (they cannot be offered again)', async () => {
      const member = await createUser(t.app.db);
      const free = await createItem(t.app.db, { userId: member.id });
      const held = await createItem(t.app.db, { userId: member.id });
      const barter = await createBarterRequest(t.app.db, { fromUserId: member.id, status: 'accepted' });
      await t.app.db.update(items).set({ reservedByRequestId: barter.id }).where(eq(items.id, held.id));
      const listed = await myItems(await sessionCookiesFor(t.app, member));
      expect(listed.map((item) => [item.id, item.isReserved])).toEqual([
        [held.id, true],
        [free.id, false],
      ]);
    });

    it('gives an empty list to a member without items', async () => {
      const member = await createUser(t.app.db);
      expect(await myItems(await sessionCookiesFor(t.app, member))).toEqual([]);
    });
  });

  describe('PATCH /api/items/:id', () => {
    it('changes only the fields sent', async () => {
      const item = (await create(drill)).json<Item>();
      const response = await patch(item.id, { title: 'Cordless drill with case', estimatedValue: '50' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: item.id,
        title: 'Cordless drill with case',
        description: item.description,
        category: 'tools',
        estimatedValue: 50,
      });
      expect(Date.parse(response.json<Item>().updatedAt)).toBeGreaterThanOrEqual(Date.parse(item.updatedAt));
      expect((await patch(item.id, { estimatedValue: null })).json()).toMatchObject({ estimatedValue: null });
      expect((await patch(item.id, {})).json()).toMatchObject({ title: 'Cordless drill with case' });
    });

    it('deactivates and reactivates; inactive items stay in My Items', async () => {
      const item = (await create(drill)).json<Item>();
      expect((await patch(item.id, { isActive: false })).json()).toMatchObject({ isActive: false });
      expect((await myItems()).find((listed) => listed.id === item.id)).toMatchObject({ isActive: false });
      expect((await patch(item.id, { isActive: true })).json()).toMatchObject({ isActive: true });
    });

    it('checks the category against the list that applies after the change', async () => {
      const item = (await create(drill)).json<Item>();
      // Only isService sent: "tools" is not a service category.
      const flipped = await patch(item.id, { isService: true });
      expect(flipped.statusCode).toBe(400);
      expect(flipped.json()).toEqual({
        message: 'category: Choose a category from the list.',
        code: 'VALIDATION_FAILED',
      });
      // Only category sent: "lessons" is not a goods category.
      expect((await patch(item.id, { category: 'lessons' })).statusCode).toBe(400);
      const both = await patch(item.id, { isService: true, category: 'skilled trade' });
      expect(both.statusCode).toBe(200);
      expect(both.json()).toMatchObject({ isService: true, category: 'skilled trade' });
    });

    it('refuses bad values, unknown fields and Terms-breaking wording', async () => {
      const item = (await create(drill)).json<Item>();
      expect((await patch(item.id, { estimatedValue: -3 })).statusCode).toBe(400);
      expect((await patch(item.id, { estimatedValue: 1.999 })).statusCode).toBe(400);
      expect((await patch(item.id, { userId: neighbour.id })).json()).toEqual({
        message: 'Unknown field: userId.',
        code: 'VALIDATION_FAILED',
      });
      const rude = await patch(item.id, { description: 'Also selling cocaine' });
      expect(rude.statusCode).toBe(400);
      expect(rude.json<{ message: string }>().message).toContain('not appropriate');
      expect(await storedRow(item.id)).toMatchObject({ description: drill.description, userId: owner.id });
    });
  });

  describe('DELETE /api/items/:id', () => {
    it('deletes the item: 204, then gone', async () => {
      const item = (await create(drill)).json<Item>();
      const response = await remove(item.id);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect(await storedRow(item.id)).toBeNull();
      expect((await myItems()).some((listed) => listed.id === item.id)).toBe(false);
      expect((await remove(item.id)).statusCode).toBe(404);
    });
  });

  describe('an item an accepted barter holds (issue 27)', () => {
    it('cannot be changed at all (fields, photo, shown or hidden): 409 as for deleting it; it offers no actions', async () => {
      const item = (
        await create({ ...drill, imageUrl: toDataUrl(await solidImage(32, 32, 'jpeg')) })
      ).json<Item>();
      expect(item.allowedActions).toEqual(['edit', 'hide', 'delete']);
      const barter = await createBarterRequest(t.app.db, {
        fromUserId: neighbour.id,
        toUserId: owner.id,
        status: 'accepted',
      });
      await t.app.db.update(items).set({ reservedByRequestId: barter.id }).where(eq(items.id, item.id));
      const before = await storedRow(item.id);
      const photosDir = path.join(t.config.dataDir, 'photos');
      const photoFiles = () => (existsSync(photosDir) ? readdirSync(photosDir).sort() : []);
      const filesBefore = photoFiles();

      const deletion = await remove(item.id);
      expect(deletion.statusCode).toBe(409);
      expect(deletion.json()).toEqual({
        message: 'This item is reserved in an accepted barter. Cancel the barter first.',
        code: 'CONFLICT',
      });
      const newPhoto = toDataUrl(await solidImage(40, 40, 'png'), 'image/png');
      const attempts = {
        title: await patch(item.id, { title: 'Not the drill you agreed to' }),
        description: await patch(item.id, { description: 'Batteries not included after all' }),
        value: await patch(item.id, { estimatedValue: 1 }),
        category: await patch(item.id, { category: 'books' }),
        newPhoto: await patch(item.id, { imageUrl: newPhoto }),
        noPhoto: await patch(item.id, { imageUrl: null }),
        hide: await patch(item.id, { isActive: false }),
        show: await patch(item.id, { isActive: true }),
        nothing: await patch(item.id, {}),
        multipartPhoto: await call({
          method: 'PATCH',
          url: `/api/items/${item.id}`,
          cookies: ownerCookies,
          ...(await formBody({ title: 'Drill' }, { bytes: await solidImage(48, 48, 'jpeg') })),
        }),
      };
      for (const [what, response] of Object.entries(attempts)) {
        expect({ what, status: response.statusCode, body: response.json() }).toEqual({
          what,
          status: 409,
          body: deletion.json(),
        });
      }
      // Nothing changed: not the row (the barter shows its photo), not the stored photo files.
      expect(await storedRow(item.id)).toEqual(before);
      expect(photoFiles()).toEqual(filesBefore);
      expect((await myItems()).find((listed) => listed.id === item.id)).toMatchObject({
        isReserved: true,
        allowedActions: [],
      });

      // Once the barter lets go of it, the item is the owner's to change again.
      await t.app.db.update(items).set({ reservedByRequestId: null }).where(eq(items.id, item.id));
      const freed = await patch(item.id, { title: 'Drill, mine again' });
      expect(freed.statusCode).toBe(200);
      expect(freed.json<Item>().allowedActions).toEqual(['edit', 'hide', 'delete']);
      expect((await patch(item.id, { isActive: false })).json<Item>().allowedActions).toEqual([
        'edit',
        'show',
        'delete',
      ]);
    });
  });

  describe("another member's item", () => {
    it('cannot be read, edited or deleted: 404 as if it did not exist', async () => {
      const item = (await create({ ...drill, title: 'Private drill' })).json<Item>();
      expect((await myItems(neighbourCookies)).some((listed) => listed.id === item.id)).toBe(false);

      const missing = await patch(2_147_483_647, { title: 'x' }, neighbourCookies);
      const edit = await patch(item.id, { title: 'Stolen drill' }, neighbourCookies);
      const deactivate = await patch(item.id, { isActive: false }, neighbourCookies);
      const deletion = await remove(item.id, neighbourCookies);
      for (const response of [edit, deactivate, deletion]) {
        expect(response.statusCode).toBe(404);
        // Exactly the answer for an id that does not exist.
        expect(response.json()).toEqual(missing.json());
      }
      expect(missing.json()).toEqual({ message: 'Item not found.', code: 'NOT_FOUND' });
      expect(await storedRow(item.id)).toMatchObject({
        title: 'Private drill',
        isActive: true,
        userId: owner.id,
      });
    });
  });

  describe('malformed ids', () => {
    it.each(['abc', '1.5', '-1', '0', '1e3', '99999999999', '%00'])(
      '%s is a 400, never a 500',
      async (id) => {
        for (const response of [await patch(id, { title: 'x' }), await remove(id)]) {
          expect(response.statusCode).toBe(400);
          expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
        }
      },
    );

    it('an id in range that does not exist is a 404', async () => {
      expect((await patch(2_147_483_647, { title: 'x' })).statusCode).toBe(404);
      expect((await remove(2_147_483_647)).statusCode).toBe(404);
    });
  });
});
