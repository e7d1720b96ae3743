import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../test/factories';
import { openTestDatabase } from '../test/helpers';
import type { DatabaseHandle } from './client';
import { MIGRATIONS_DIR } from './migrate';
import { items } from './schema/trading';

/**
 * Migration 0044 (ADR 082): an item stored before photo lists keeps its one photo as the cover. The
 * database under test is migrated already, so rows are written as they were before 0044 (a photo in
 * image_url, an empty list) and the migration's own UPDATE, read from its file, runs again.
 */
describe('migration 0044: existing photos become covers', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
    handle = database.handle;
  });
  afterAll(() => database.drop());

  const update = () => {
    const file = readFileSync(path.join(MIGRATIONS_DIR, '0044_item-photos-condition.sql'), 'utf8');
    const statement = file.split('--> statement-breakpoint').find((part) => part.includes('UPDATE "items"'));
    if (!statement) throw new Error('0044 has no UPDATE of items');
    return sql.raw(statement.replace(/^\s*--.*$/gm, ''));
  };

  it('lists the photo of each item that had one (the feed-size one, or the large one for older rows)', async () => {
    const db = handle.db;
    const both = await createItem(db, { imageUrl: '/photos/a.jpg', thumbnailUrl: '/photos/a.webp' });
    const older = await createItem(db, { imageUrl: '/photos/b.jpg', thumbnailUrl: null });
    const none = await createItem(db);
    for (const item of [both, older, none]) expect(item.photos).toEqual([]);

    await db.execute(update());

    const photosOf = async (id: number) => (await db.select().from(items).where(eq(items.id, id)))[0]?.photos;
    expect(await photosOf(both.id)).toEqual([{ imageUrl: '/photos/a.jpg', thumbnailUrl: '/photos/a.webp' }]);
    expect(await photosOf(older.id)).toEqual([{ imageUrl: '/photos/b.jpg', thumbnailUrl: '/photos/b.jpg' }]);
    expect(await photosOf(none.id)).toEqual([]);
  });

  it('refuses a ninth photo and a condition on a service in the database too', async () => {
    const db = handle.db;
    const nine = Array.from({ length: 9 }, (_, i) => ({
      imageUrl: `/photos/${i}.jpg`,
      thumbnailUrl: `/photos/${i}.webp`,
    }));
    await expect(createItem(db, { photos: nine })).rejects.toThrow();
    await expect(
      createItem(db, { isService: true, category: 'lessons', condition: 'good' }),
    ).rejects.toThrow();
    expect((await createItem(db, { condition: 'for-parts' })).condition).toBe('for-parts');
  });
});
