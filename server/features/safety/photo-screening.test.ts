import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import type { Item } from '#common/schemas/listings.ts';
import type { ModerationCase, Refusal } from '#common/schemas/safety.ts';
import { users } from '../../db/schema/users';
import { encodePhoto } from '../../photos/photo-pipeline';
import { PhotoScreener, SCREEN_PX } from '../../photos/screening/photo-screener';
import { formBody } from '../../test/forms';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { flaggedPhoto, jpegWithGpsAndOrientation, solidImage } from '../../test/images';
import { barterKit, type Member } from '../barters/barter-test-kit';
import { HELD_MESSAGE } from '../items';
import { SCREENING_REPORTER, setModerator } from './moderation-service';

/** A photo of something, with shapes and text, as a neighbour might list. */
function ordinaryPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <rect width="800" height="600" fill="#e8e4da"/>
    <rect x="160" y="180" width="480" height="260" rx="24" fill="#2f5d8a"/>
    <circle cx="260" cy="460" r="60" fill="#222"/><circle cx="540" cy="460" r="60" fill="#222"/>
    <text x="220" y="320" font-size="64" fill="#fff" font-family="sans-serif">DeWalt</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

describe('the photo screener (the real model, in its worker thread)', () => {
  const screener = new PhotoScreener();
  afterAll(() => screener.close());

  const screen = async (bytes: Buffer) => screener.screen((await encodePhoto(bytes)).screenPixels);

  it('rates ordinary photos unlikely and the flagged fixture likely explicit', async () => {
    for (const photo of [
      await ordinaryPhoto(),
      await solidImage(640, 480, 'jpeg'),
      await jpegWithGpsAndOrientation(),
    ]) {
      const result = await screen(photo);
      expect(result.unavailable).toBeUndefined();
      expect(result.explicit).toBeLessThan(0.3);
    }
    const flagged = await screen(await flaggedPhoto());
    expect(flagged.explicit).toBeGreaterThan(0.95);
    expect(flagged.scores?.Porn).toBeGreaterThan(0.9);
  });

  it('answers several photos at once, each its own', async () => {
    const [a, b, c] = await Promise.all([
      screen(await flaggedPhoto()),
      screen(await ordinaryPhoto()),
      screen(await flaggedPhoto()),
    ]);
    expect([a?.explicit, b?.explicit, c?.explicit].map((value) => (value ?? 0) > 0.5)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('says unavailable, never throws, for pixels of the wrong size or a worker that ends; then starts afresh', async () => {
    expect(await screener.screen(new Uint8Array(10))).toMatchObject({ unavailable: expect.any(String) });
    const pixels = (await encodePhoto(await flaggedPhoto())).screenPixels;
    expect(pixels.length).toBe(SCREEN_PX * SCREEN_PX * 3);
    const pending = screener.screen(pixels);
    await screener.close();
    expect(await pending).toMatchObject({ unavailable: expect.any(String) });
    expect((await screener.screen(pixels)).explicit).toBeGreaterThan(0.95);
  });
});

/** Photo screening through the routes (ADR 027). */
describe('listings and profile photos the screening finds likely explicit', () => {
  let t: TestApp;
  let kit: ReturnType<typeof barterKit>;
  let mod: Member;

  beforeAll(async () => {
    t = await buildTestApp();
    kit = barterKit(t);
    mod = await kit.member('Moe');
    const email = `moe-${mod.id.slice(0, 8)}@example.com`;
    await t.app.db.update(users).set({ email }).where(eq(users.id, mod.id));
    await setModerator(t.app.db, email, true);
  });
  afterAll(() => t.close());

  const listing = { title: 'Camping stove', description: 'Two burners.', category: 'sporting' };
  const list = async (who: Member, photo: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/items',
      cookies: who.cookies,
      ...(await formBody({ ...listing, isService: 'false' }, { bytes: photo, type: 'image/png' })),
    });
  const feedIds = async (who: Member) =>
    kit
      .ok<FeedItem[]>(await kit.call(who, 'GET', '/api/feed/everything?radius=50&limit=50'))
      .map((item) => item.id);
  const cases = async () => kit.ok<ModerationCase[]>(await kit.call(mod, 'GET', '/api/moderation/reports'));
  const caseOf = async (itemId: number) =>
    (await cases()).find((c) => c.targetKind === 'item' && c.targetId === String(itemId));
  const resolve = (reportId: number, action: string) =>
    kit.call(mod, 'POST', `/api/moderation/reports/${reportId}/resolve`, { action, reason: 'Looked at it' });

  it('holds the listing for a moderator instead of the feeds; dismissing shows it', async () => {
    const ada = await kit.member('Ada');
    const neighbour = await kit.member('Ned');
    const created = await list(ada, await flaggedPhoto());
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json<Item>();
    expect(item).toMatchObject({ isActive: false, moderation: 'held' });
    expect(item.imageUrl).toMatch(/^\/photos\//);

    // Nowhere for the neighbours: feeds, search, the item, the member's page.
    expect(await feedIds(neighbour)).not.toContain(item.id);
    expect(
      kit
        .ok<FeedItem[]>(await kit.call(neighbour, 'GET', '/api/feed/everything?q=stove&radius=50'))
        .map((row) => row.id),
    ).not.toContain(item.id);
    expect((await kit.call(neighbour, 'GET', `/api/items/${item.id}`)).statusCode).toBe(404);
    const page = kit.ok<Array<{ id: number }>>(
      await kit.call(neighbour, 'GET', `/api/members/${ada.id}/items`),
    );
    expect(JSON.stringify(page)).not.toContain(`"id":${item.id},`);

    // The owner cannot show it meanwhile, and is told why.
    const show = kit.refused(
      await kit.call(ada, 'PATCH', `/api/items/${item.id}`, { isActive: true }),
      403,
      'REMOVED_BY_MODERATOR',
    );
    expect(show.message).toBe(HELD_MESSAGE);

    // In the moderators' queue, with the photo, reported by the screening.
    const held = await caseOf(item.id);
    expect(held).toMatchObject({
      title: 'Camping stove',
      imageUrl: expect.stringMatching(/^\/photos\//),
      owner: { id: ada.id },
      reports: [
        { reason: 'explicit', reporterName: SCREENING_REPORTER, note: expect.stringMatching(/\d+%/) },
      ],
    });

    expect((await resolve(held?.reportId as number, 'dismiss')).statusCode).toBe(204);
    expect(await feedIds(neighbour)).toContain(item.id);
    const mine = kit.ok<{ items: Item[] } | Item[]>(await kit.call(ada, 'GET', '/api/items/my'));
    const row = (Array.isArray(mine) ? mine : mine.items).find((own) => own.id === item.id);
    expect(row).toMatchObject({ isActive: true, moderation: null });
  });

  it('removing it keeps it hidden for good; an ordinary photo lists at once', async () => {
    const bo = await kit.member('Bo');
    const neighbour = await kit.member('Nia');
    const item = (await list(bo, await flaggedPhoto())).json<Item>();
    const held = await caseOf(item.id);
    expect((await resolve(held?.reportId as number, 'remove')).statusCode).toBe(204);
    const removed = kit.refused(
      await kit.call(bo, 'PATCH', `/api/items/${item.id}`, { isActive: true }),
      403,
      'REMOVED_BY_MODERATOR',
    );
    expect(removed.message).toMatch(/removed/);
    expect(await feedIds(neighbour)).not.toContain(item.id);

    const ordinary = await list(bo, await ordinaryPhoto());
    expect(ordinary.statusCode).toBe(201);
    expect(ordinary.json<Item>()).toMatchObject({ isActive: true, moderation: null });
    expect(await feedIds(neighbour)).toContain(ordinary.json<Item>().id);
    expect(await caseOf(ordinary.json<Item>().id)).toBeUndefined();
  });

  it('holds a listing whose new photo is flagged, with one report however often it is sent', async () => {
    const cy = await kit.member('Cy');
    const neighbour = await kit.member('Noa');
    const item = (await list(cy, await ordinaryPhoto())).json<Item>();
    expect(await feedIds(neighbour)).toContain(item.id);
    for (let i = 0; i < 2; i++) {
      const edited = await t.app.inject({
        method: 'PATCH',
        url: `/api/items/${item.id}`,
        cookies: cy.cookies,
        ...(await formBody({}, { bytes: await flaggedPhoto(), type: 'image/png' })),
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json<Item>()).toMatchObject({ isActive: false, moderation: 'held' });
    }
    expect(await feedIds(neighbour)).not.toContain(item.id);
    expect((await caseOf(item.id))?.reports).toHaveLength(1);
    // A warning closes the case without removing: the listing shows again.
    expect((await resolve((await caseOf(item.id))?.reportId as number, 'warn')).statusCode).toBe(204);
    expect(await feedIds(neighbour)).toContain(item.id);
  });

  it('refuses a flagged profile photo without storing it, and shows the moderators the refusal', async () => {
    const di = await kit.member('Di');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      cookies: di.cookies,
      ...(await formBody({}, { bytes: await flaggedPhoto(), type: 'image/png' })),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'CONTENT_NOT_ALLOWED',
      message: expect.stringMatching(/explicit/),
    });
    const [row] = await t.app.db.select().from(users).where(eq(users.id, di.id));
    expect(row?.profileImageUrl).toBeNull();
    const refusals = kit.ok<Refusal[]>(await kit.call(mod, 'GET', '/api/moderation/refusals'));
    expect(refusals.find((r) => r.memberId === di.id)).toMatchObject({ kind: 'profile-photo' });

    const ordinary = await t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      cookies: di.cookies,
      ...(await formBody({}, { bytes: await ordinaryPhoto() })),
    });
    expect(ordinary.statusCode, ordinary.body).toBe(200);
  });
});

describe('with PHOTO_SCREENING=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ PHOTO_SCREENING: 'false' });
  });
  afterAll(() => t.close());

  it('lists every photo at once', async () => {
    const kit = barterKit(t);
    const eve = await kit.member('Eve');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/items',
      cookies: eve.cookies,
      ...(await formBody(
        { title: 'Lamp', description: 'Brass.', category: 'household', isService: 'false' },
        { bytes: await flaggedPhoto(), type: 'image/png' },
      )),
    });
    expect(created.json<Item>()).toMatchObject({ isActive: true, moderation: null });
  });
});
