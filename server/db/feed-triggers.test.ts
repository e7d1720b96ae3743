import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readListingVersion, readPageState } from '../features/feed';
import { createBarterRequest, createItem, createRating, createUser, createWant } from '../test/factories';
import { openTestDatabase } from '../test/helpers';
import type { DatabaseHandle } from './client';
import { barterRequests, items, savedItems, users, wants } from './schema/index';

/**
 * What the database keeps for the feeds by itself (migrations 0006 and 0007), whoever writes:
 * the owner's location copied onto each item, and the listing version that retires kept rankings.
 */
describe('feed triggers', () => {
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ handle: database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  const locationOf = async (itemId: number) => {
    const [row] = await database.db
      .select({ latitude: items.latitude, longitude: items.longitude })
      .from(items)
      .where(eq(items.id, itemId));
    return row;
  };

  describe("an item's copy of its owner's location", () => {
    // The owner's public point (migration 0009, server/geo/README.md), never the exact one.
    const publicPointOf = async (userId: string) => {
      const [row] = await database.db
        .select({ latitude: users.publicLatitude, longitude: users.publicLongitude })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    };

    it('is copied when the item is listed, and follows the owner when they move', async () => {
      const owner = await createUser(database.db, { latitude: 45.5, longitude: -122.6 });
      const item = await createItem(database.db, { userId: owner.id });
      const first = await publicPointOf(owner.id);
      expect(first?.latitude).not.toBeNull();
      expect(await locationOf(item.id)).toEqual(first);
      expect(await locationOf(item.id)).not.toEqual({ latitude: 45.5, longitude: -122.6 });

      await database.db
        .update(users)
        .set({ latitude: 44.05, longitude: -123.09 })
        .where(eq(users.id, owner.id));
      const second = await publicPointOf(owner.id);
      expect(second).not.toEqual(first);
      expect(await locationOf(item.id)).toEqual(second);

      await database.db.update(users).set({ latitude: null, longitude: null }).where(eq(users.id, owner.id));
      expect(await locationOf(item.id)).toEqual({ latitude: null, longitude: null });
    });

    it('is null for an owner without a location, and cannot be set to anything else', async () => {
      const owner = await createUser(database.db, { latitude: null, longitude: null });
      const item = await createItem(database.db, { userId: owner.id });
      expect(await locationOf(item.id)).toEqual({ latitude: null, longitude: null });
      await database.db.update(items).set({ latitude: 10, longitude: 10 }).where(eq(items.id, item.id));
      expect(await locationOf(item.id)).toEqual({ latitude: null, longitude: null });
    });
  });

  describe('the listing version', () => {
    /** How far `write` moves the version on. */
    const moves = async (write: () => Promise<unknown>) => {
      const before = await readListingVersion(database.db);
      await write();
      return (await readListingVersion(database.db)) - before;
    };

    it('moves on with every write that can reorder a feed', async () => {
      const owner = await createUser(database.db, { latitude: 45.5, longitude: -122.6 });
      let itemId = 0;
      expect(
        await moves(async () => (itemId = (await createItem(database.db, { userId: owner.id })).id)),
      ).toBe(1);
      const byId = eq(items.id, itemId);
      expect(await moves(() => database.db.update(items).set({ title: 'Renamed' }).where(byId))).toBe(1);
      expect(await moves(() => database.db.update(items).set({ isActive: false }).where(byId))).toBe(1);
      expect(await moves(() => database.db.update(items).set({ estimatedValue: 12 }).where(byId))).toBe(1);
      // Cards show the condition and feeds may filter by it (ADR 082).
      expect(await moves(() => database.db.update(items).set({ condition: 'fair' }).where(byId))).toBe(1);
      let wantId = 0;
      expect(
        await moves(async () => (wantId = (await createWant(database.db, { userId: owner.id })).id)),
      ).toBe(1);
      expect(
        await moves(() => database.db.update(wants).set({ category: 'books' }).where(eq(wants.id, wantId))),
      ).toBeGreaterThanOrEqual(1);
      expect(
        await moves(() => database.db.update(users).set({ latitude: 45.6 }).where(eq(users.id, owner.id))),
      ).toBeGreaterThanOrEqual(1);
      expect(await moves(() => database.db.delete(wants).where(eq(wants.id, wantId)))).toBe(1);
      expect(await moves(() => database.db.delete(items).where(byId))).toBe(1);
    });

    it('stays for writes that change no order: views, photos, saves, names', async () => {
      const owner = await createUser(database.db, { latitude: 45.5, longitude: -122.6 });
      const viewer = await createUser(database.db);
      const item = await createItem(database.db, { userId: owner.id });
      const byId = eq(items.id, item.id);
      expect(await moves(() => database.db.update(items).set({ viewCount: 3 }).where(byId))).toBe(0);
      expect(
        await moves(() => database.db.update(items).set({ imageUrl: '/photos/a.webp' }).where(byId)),
      ).toBe(0);
      // The other photos of an item show only in its detail (ADR 082).
      expect(
        await moves(() =>
          database.db
            .update(items)
            .set({ photos: [{ imageUrl: '/photos/a.webp', thumbnailUrl: '/photos/a.webp' }] })
            .where(byId),
        ),
      ).toBe(0);
      expect(
        await moves(() => database.db.insert(savedItems).values({ userId: viewer.id, itemId: item.id })),
      ).toBe(0);
      expect(
        await moves(() =>
          database.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, owner.id)),
        ),
      ).toBe(0);
      // The same coordinates again: nothing moved.
      expect(
        await moves(() =>
          database.db.update(users).set({ latitude: 45.5, longitude: -122.6 }).where(eq(users.id, owner.id)),
        ),
      ).toBe(0);
    });
  });

  describe('the card version', () => {
    /** How far `write` moves the card version and the listing version on. */
    const moves = async (write: () => Promise<unknown>) => {
      const before = await readPageState(database.db, '00000000-0000-0000-0000-000000000000', []);
      await write();
      const after = await readPageState(database.db, '00000000-0000-0000-0000-000000000000', []);
      return { card: after.card - before.card, listing: after.listing - before.listing };
    };

    it('moves on with everything a card shows, and only the listing writes move the order', async () => {
      const owner = await createUser(database.db, { latitude: 45.5, longitude: -122.6 });
      const other = await createUser(database.db);
      const item = await createItem(database.db, { userId: owner.id });
      const byId = eq(items.id, item.id);
      expect(await moves(() => database.db.update(items).set({ title: 'Renamed' }).where(byId))).toEqual({
        card: 1,
        listing: 1,
      });
      expect(
        await moves(() => database.db.update(items).set({ thumbnailUrl: '/photos/t.webp' }).where(byId)),
      ).toEqual({ card: 1, listing: 0 });
      expect(
        await moves(() =>
          database.db.update(users).set({ lastName: 'Newname' }).where(eq(users.id, owner.id)),
        ),
      ).toEqual({ card: 1, listing: 0 });
      expect(await moves(() => createWant(database.db, { userId: owner.id }))).toEqual({
        card: 1,
        listing: 1,
      });
      let tradeId = 0;
      expect(
        await moves(
          async () =>
            (tradeId = (await createBarterRequest(database.db, { fromUserId: other.id, toUserId: owner.id }))
              .id),
        ),
      ).toEqual({ card: 1, listing: 0 });
      expect(
        await moves(() =>
          database.db
            .update(barterRequests)
            .set({ status: 'completed' })
            .where(eq(barterRequests.id, tradeId)),
        ),
      ).toEqual({ card: 1, listing: 0 });
      expect(
        await moves(() =>
          createRating(database.db, { barterRequestId: tradeId, raterId: other.id, rateeId: owner.id }),
        ),
      ).toEqual({ card: 1, listing: 0 });
    });

    it('stays for views, saves and passwords', async () => {
      const owner = await createUser(database.db);
      const viewer = await createUser(database.db);
      const item = await createItem(database.db, { userId: owner.id });
      expect(
        await moves(() => database.db.update(items).set({ viewCount: 9 }).where(eq(items.id, item.id))),
      ).toEqual({ card: 0, listing: 0 });
      expect(
        await moves(() => database.db.insert(savedItems).values({ userId: viewer.id, itemId: item.id })),
      ).toEqual({ card: 0, listing: 0 });
      expect(
        await moves(() => database.db.update(users).set({ passwordHash: 'x' }).where(eq(users.id, owner.id))),
      ).toEqual({ card: 0, listing: 0 });
    });
  });
});
