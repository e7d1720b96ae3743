import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedSearch } from '#common/schemas/alerts.ts';
import { queryRows } from '../../db/rows';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, json, type TestApp } from '../../test/helpers';
import { sendListingAlerts } from './listing-alerts';

// A saved search keeps the feed's condition filter (issue 31, ADR 089; the filter: ADR 082's
// addendum): it is saved and listed with the search, and a new listing alerts its member only when
// it is a good in that condition or better; services and goods listed without one never.

const ORIGIN = { latitude: 45.52, longitude: -122.68 };

describe('saved searches with a condition', () => {
  let t: TestApp;
  let owner: UserRow;
  let likeNew: UserRow;
  let anyCondition: UserRow;
  let filterOnly: UserRow;

  beforeAll(async () => {
    t = await buildTestApp();
    owner = await createUser(t.app.db, ORIGIN);
    const near = { latitude: ORIGIN.latitude + 0.01, longitude: ORIGIN.longitude };
    likeNew = await createUser(t.app.db, near);
    anyCondition = await createUser(t.app.db, near);
    filterOnly = await createUser(t.app.db, near);
  });
  afterAll(() => t.close());

  const save = async (member: UserRow, payload: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/saved-searches',
      payload,
      cookies: await sessionCookiesFor(t.app, member),
    });

  /** Who has been alerted to `itemId`. */
  const alerted = async (itemId: number) =>
    new Set(
      (
        await queryRows<{ member_id: string }>(
          t.app.db,
          sql`SELECT member_id::text AS member_id FROM listing_alerts WHERE item_id = ${itemId}::int`,
        )
      ).map((row) => row.member_id),
    );

  const listAndAlert = async (values: {
    title: string;
    condition?: 'new' | 'good' | null;
    isService?: boolean;
  }) => {
    const item = await createItem(t.app.db, {
      userId: owner.id,
      title: values.title,
      category: values.isService ? 'lessons' : 'sports',
      condition: values.condition ?? null,
      isService: values.isService ?? false,
    });
    await sendListingAlerts(t.app.db, new Date(item.createdAt.getTime() + 1000));
    return alerted(item.id);
  };

  it('saves and lists the condition; any condition is null; a bad one is a 400', async () => {
    const saved = await save(likeNew, {
      name: 'Like-new bikes',
      feed: 'everything',
      q: 'bike',
      radius: 5,
      condition: 'like-new',
    });
    expect(saved.statusCode).toBe(201);
    expect(json<SavedSearch>(saved)).toMatchObject({ q: 'bike', radius: 5, condition: 'like-new' });
    const plain = await save(anyCondition, { name: 'Bikes', feed: 'everything', q: 'bike', radius: 5 });
    expect(json<SavedSearch>(plain).condition).toBeNull();
    // A filter without search text: everything near in good condition or better.
    const filter = await save(filterOnly, {
      name: 'Good things nearby',
      feed: 'everything',
      q: null,
      radius: 5,
      condition: 'good',
    });
    expect(filter.statusCode).toBe(201);
    expect(json<SavedSearch>(filter)).toMatchObject({ q: null, condition: 'good' });

    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/saved-searches',
      cookies: await sessionCookiesFor(t.app, likeNew),
    });
    expect(json<SavedSearch[]>(listed)[0]).toMatchObject({ name: 'Like-new bikes', condition: 'like-new' });

    for (const condition of ['mint', 'LIKE-NEW', '', 3, 'new\u0000']) {
      const refused = await save(likeNew, { name: 'Bad', feed: 'everything', q: 'x', radius: 5, condition });
      expect(refused.statusCode, String(condition)).toBe(400);
      expect(json<{ code: string }>(refused).code).toBeTruthy();
    }
  });

  it('alerts a new good as good as the filter or better, and never a service or an unstated condition', async () => {
    // A new bike passes 'like new or better' and 'good or better'.
    expect(await listAndAlert({ title: 'Road bike', condition: 'new' })).toEqual(
      new Set([likeNew.id, anyCondition.id, filterOnly.id]),
    );
    // A good one: not like new.
    expect(await listAndAlert({ title: 'Kids bike', condition: 'good' })).toEqual(
      new Set([anyCondition.id, filterOnly.id]),
    );
    // No condition stated: only the searches without a filter.
    expect(await listAndAlert({ title: 'Tandem bike' })).toEqual(new Set([anyCondition.id]));
    // A service has none.
    expect(await listAndAlert({ title: 'Bike repair lessons', isService: true })).toEqual(
      new Set([anyCondition.id]),
    );
  });
});
