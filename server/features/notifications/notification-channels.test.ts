import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, type NotificationKind } from '#common/notification-text.ts';
import {
  defaultChannel,
  GROUP_OF_KIND,
  NOTIFICATION_GROUPS,
  type NotificationChannels,
} from '#common/schemas/notification-channels.ts';
import type { PushKinds } from '#common/schemas/push.ts';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/rows';
import { listingAlerts } from '../../db/schema/alerts';
import { notifications } from '../../db/schema/trading';
import { type UserRow, users } from '../../db/schema/users';
import { pushSubscriptions } from '../../db/schema/web-push';
import { createBarterRequest, createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestSmtp } from '../../test/smtp';
import { sendMailDigests, unsubscribeToken } from './mail-digest';
import { notifyMember } from './notify';

const URL_ = '/api/account/notification-channels';
const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/';
const KEYS = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };

/**
 * One channel per group of notification kinds (issue 31, ADR 090): push, e-mail digest or none,
 * honoured by the push outbox's trigger and by the digest; the old switches carried over.
 */
describe('notification channels (ADR 090)', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startTestSmtp>>;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://barter.example' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  let serial = 0;
  const member = async (values: Partial<UserRow> = {}) => {
    serial++;
    const row = await createUser(t.app.db, {
      email: `channels${serial}-${Date.now()}@example.com`,
      emailVerifiedAt: new Date(),
      ...values,
    });
    const cookies = await sessionCookiesFor(t.app, row);
    const call = (options: InjectOptions) => t.app.inject({ cookies, ...options });
    return { row, call };
  };
  /** A device row as the subscription route keeps it (the trigger only needs it to exist). */
  const device = (userId: string) =>
    t.app.db.insert(pushSubscriptions).values({
      userId,
      endpoint: `${ENDPOINT}${userId}-${serial++}`,
      p256dh: KEYS.p256dh,
      auth: KEYS.auth,
      userAgent: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
    });
  /** How many pushes the trigger queues for one new entry of `kind` (rolled back: nothing is sent). */
  const queuedFor = async (userId: string, kind: NotificationKind): Promise<number> => {
    let queued = -1;
    await t.app.db
      .transaction(async (tx) => {
        await notifyMember(tx, { userId, actorId: null, kind, barterRequestId: null });
        const [row] = await queryRows<{ n: number }>(
          tx,
          sql`SELECT count(*)::int AS n FROM push_deliveries d
                JOIN notifications n ON n.id = d.notification_id
               WHERE n.user_id = ${userId}::uuid AND n.kind = ${kind}`,
        );
        queued = row?.n ?? 0;
        throw new Error('roll back');
      })
      .catch((error: Error) => {
        if (error.message !== 'roll back') throw error;
      });
    return queued;
  };

  it('the SQL functions the trigger and the digest read agree with the shared groups and defaults', async () => {
    const rows = await queryRows<{ kind: string; kind_group: string | null }>(
      t.app.db,
      sql`SELECT k AS kind, notification_kind_group(k) AS kind_group
            FROM unnest(${`{${NOTIFICATION_KINDS.join(',')}}`}::text[]) AS k`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.kind, row.kind_group]))).toEqual(
      Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, GROUP_OF_KIND[kind]])),
    );
    const alone = await member();
    const withDevice = await member();
    await device(withDevice.row.id);
    for (const [who, has] of [
      [alone, false],
      [withDevice, true],
    ] as const) {
      const channels = await queryRows<{ kind: NotificationKind; channel: string }>(
        t.app.db,
        sql`SELECT k AS kind, notification_channel(${who.row.id}::uuid, k) AS channel
              FROM unnest(${`{${NOTIFICATION_KINDS.join(',')}}`}::text[]) AS k`,
      );
      for (const { kind, channel } of channels)
        expect(channel, kind).toBe(defaultChannel(GROUP_OF_KIND[kind], has));
      // The API says the same.
      const api = (await who.call({ method: 'GET', url: URL_ })).json<NotificationChannels>();
      expect(api).toEqual(
        Object.fromEntries(NOTIFICATION_GROUPS.map((group) => [group, defaultChannel(group, has)])),
      );
    }
    // A kind no group names yet is pushed, as every kind was (ADR 087).
    const [unknown] = await queryRows<{ channel: string }>(
      t.app.db,
      sql`SELECT notification_channel(${alone.row.id}::uuid, 'a_kind_from_later') AS channel`,
    );
    expect(unknown?.channel).toBe('push');
  });

  it('reads and sets the groups named, keeps the others, and refuses bad or hostile input with a 400', async () => {
    const { call } = await member();
    const before = (await call({ method: 'GET', url: URL_ })).json<NotificationChannels>();
    expect(before).toMatchObject({ proposals: 'digest', messages: 'digest', listing_alerts: 'push' });
    const put = await call({
      method: 'PUT',
      url: URL_,
      payload: { listing_alerts: 'none', proposals: 'push' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ ...before, listing_alerts: 'none', proposals: 'push' });
    expect((await call({ method: 'GET', url: URL_ })).json()).toEqual(put.json());
    // Again, and two saves at once of different groups each keep their own.
    await Promise.all([
      call({ method: 'PUT', url: URL_, payload: { messages: 'none' } }),
      call({ method: 'PUT', url: URL_, payload: { circles: 'digest' } }),
    ]);
    expect((await call({ method: 'GET', url: URL_ })).json()).toMatchObject({
      messages: 'none',
      circles: 'digest',
      proposals: 'push',
    });

    for (const payload of [
      {},
      { proposals: 'email' },
      { proposals: 'PUSH' },
      { proposals: null },
      { proposals: ['push'] },
      { not_a_group: 'push' },
      { __proto__: 'push' },
      { 'proposals\u0000': 'push' },
      { proposals: 'push\u0000' },
      { proposals: 'push', extra: 1 },
      Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`g${index}`, 'none'])),
      ['proposals', 'push'],
    ]) {
      const refused = await call({ method: 'PUT', url: URL_, payload: payload as InjectOptions['payload'] });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toMatchObject({ message: expect.any(String) });
    }
    // Not JSON at all: refused before it is read.
    expect((await call({ method: 'PUT', url: URL_, payload: 'proposals=push' })).statusCode).toBe(415);
    expect((await t.app.inject({ method: 'GET', url: URL_ })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'PUT', url: URL_, payload: { proposals: 'none' } })).statusCode,
    ).toBe(401);
  });

  it('the push outbox queues a kind only when its group goes by push', async () => {
    const { row, call } = await member();
    await device(row.id);
    // With a device, every group is pushed by default.
    expect(await queuedFor(row.id, 'proposal_received')).toBe(1);
    expect(await queuedFor(row.id, 'listing_alert')).toBe(1);
    await call({ method: 'PUT', url: URL_, payload: { proposals: 'digest', listing_alerts: 'none' } });
    expect(await queuedFor(row.id, 'proposal_received')).toBe(0);
    expect(await queuedFor(row.id, 'no_show_reported')).toBe(0);
    expect(await queuedFor(row.id, 'listing_alert')).toBe(0);
    expect(await queuedFor(row.id, 'rating_received')).toBe(1);
    await call({ method: 'PUT', url: URL_, payload: { proposals: 'push' } });
    expect(await queuedFor(row.id, 'proposal_countered')).toBe(1);
    // Without a device nothing is queued, whatever the choice.
    const alone = await member();
    await alone.call({ method: 'PUT', url: URL_, payload: { barters: 'push' } });
    expect(await queuedFor(alone.row.id, 'rating_received')).toBe(0);
  });

  it('GET and PUT /api/push/kinds are a view of the channels; part of a group is a 400', async () => {
    const { row, call } = await member();
    await device(row.id);
    await call({ method: 'PUT', url: URL_, payload: { messages: 'digest' } });
    const kinds = (await call({ method: 'GET', url: '/api/push/kinds' })).json<PushKinds>();
    expect(kinds.kinds.map((entry) => entry.kind)).toEqual([...NOTIFICATION_KINDS]);
    expect(kinds.kinds.filter((entry) => !entry.push).map((entry) => entry.kind)).toEqual([
      'message_received',
    ]);

    const circles = NOTIFICATION_KINDS.filter((kind) => GROUP_OF_KIND[kind] === 'circles');
    const muted = await call({
      method: 'PUT',
      url: '/api/push/kinds',
      payload: { muted: [...circles, 'message_received'] },
    });
    expect(muted.statusCode, muted.body).toBe(200);
    // Circles were pushed and now reach nobody; messages were in the digest and stay there.
    expect((await call({ method: 'GET', url: URL_ })).json()).toMatchObject({
      circles: 'none',
      messages: 'digest',
      barters: 'push',
    });
    const part = await call({
      method: 'PUT',
      url: '/api/push/kinds',
      payload: { muted: ['rating_received'] },
    });
    expect(part.statusCode).toBe(400);
    // Nothing named: everything is pushed.
    kindsOk(await call({ method: 'PUT', url: '/api/push/kinds', payload: { muted: [] } }));
    expect(Object.values((await call({ method: 'GET', url: URL_ })).json<NotificationChannels>())).toEqual(
      NOTIFICATION_GROUPS.map(() => 'push'),
    );
  });
  const kindsOk = (response: { statusCode: number; body: string }) =>
    expect(response.statusCode, response.body).toBe(200);

  /** The member was away long enough for a digest. */
  const away = (userId: string) =>
    t.app.db
      .update(users)
      .set({ lastSeenAt: new Date(Date.now() - 3_600_000), mailedUntil: null })
      .where(eq(users.id, userId));
  const listingAlert = async (userId: string, matched: string) => {
    const item = await createItem(t.app.db, { title: 'Acoustic guitar' });
    await t.app.db.transaction(async (tx) => {
      await notifyMember(tx, {
        userId,
        actorId: null,
        kind: 'listing_alert',
        barterRequestId: null,
        listing: { itemId: item.id, matched },
      });
      const [entry] = await tx
        .select({ id: notifications.id })
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(sql`${notifications.id} DESC`)
        .limit(1);
      await tx.insert(listingAlerts).values({
        itemId: item.id,
        memberId: userId,
        notificationId: entry?.id ?? null,
        wave: 0,
        matched,
        sentAt: new Date(),
      });
    });
    return item;
  };

  it('the digest carries what the member chose to get by e-mail: a listing alert in the bell’s words with its link, in English and Spanish', async () => {
    const ann = await createUser(t.app.db, { firstName: 'Ann', lastName: 'Reed' });
    const english = await member({ firstName: 'Eve' });
    const spanish = await member({ firstName: 'Eva', locale: 'es' });
    for (const who of [english, spanish]) {
      // Proposals by push (no e-mail), listing alerts by e-mail, messages nowhere.
      const set = await who.call({
        method: 'PUT',
        url: URL_,
        payload: { proposals: 'push', listing_alerts: 'digest', messages: 'none' },
      });
      expect(set.statusCode, set.body).toBe(200);
    }
    const items = [];
    for (const who of [english, spanish]) {
      items.push(await listingAlert(who.row.id, 'Guitars near me'));
      const trade = await createBarterRequest(t.app.db, { fromUserId: ann.id, toUserId: who.row.id });
      await t.app.db.transaction(async (tx) => {
        await notifyMember(tx, {
          userId: who.row.id,
          actorId: ann.id,
          kind: 'proposal_received',
          barterRequestId: trade.id,
        });
        await notifyMember(tx, {
          userId: who.row.id,
          actorId: ann.id,
          kind: 'message_received',
          barterRequestId: trade.id,
        });
        // Barters' progress goes by push by default: not in the digest.
        await notifyMember(tx, {
          userId: who.row.id,
          actorId: ann.id,
          kind: 'rating_received',
          barterRequestId: trade.id,
        });
      });
      await away(who.row.id);
    }
    await sendMailDigests(t.app);
    const [englishItem, spanishItem] = items;
    const mailEn = await smtp.waitFor(english.row.email ?? '');
    expect(mailEn.subject).toBe('Something new on Barterhood');
    expect(mailEn.text).toContain(
      `- New listing matching Guitars near me: http://barter.example/items/${englishItem?.id}\n`,
    );
    expect(mailEn.text).not.toContain('proposed a barter');
    expect(mailEn.text).not.toContain('New message');
    expect(mailEn.text).not.toContain('rated your barter');
    const stop = mailEn.links.find((link) => link.includes('k=listing_alerts')) ?? '';
    expect(mailEn.text).toContain(
      `Stop emails about new listings matching your saved searches and wants: ${stop}`,
    );
    expect(stop).toContain(
      `t=${unsubscribeToken(t.app.config.sessionSecret, english.row.id, 'listing_alerts')}`,
    );

    const mailEs = await smtp.waitFor(spanish.row.email ?? '');
    expect(mailEs.text).toMatch(
      new RegExp(
        `- Nuevo anuncio que coincide con Guitars near me: http://barter\\.example/items/${spanishItem?.id}\\n`,
      ),
    );

    // The stop link sets listing alerts to none (and nothing else).
    const done = await t.app.inject({ method: 'POST', url: `/api/mail/unsubscribe${new URL(stop).search}` });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      message: 'You will get no more emails about new listings matching your searches and wants.',
    });
    expect((await english.call({ method: 'GET', url: URL_ })).json()).toMatchObject({
      listing_alerts: 'none',
      proposals: 'push',
    });
    // A link for a group that does not exist, or with control characters, is a 400.
    for (const k of ['listing_alert', 'proposals%00', '..%2Fproposals', '']) {
      const refused = await t.app.inject({
        method: 'POST',
        url: `/api/mail/unsubscribe?u=${english.row.id}&k=${k}&t=${'A'.repeat(43)}`,
      });
      expect(refused.statusCode, k).toBe(400);
    }
  });

  it('the data export names the member’s push devices and their channels, never an endpoint or key', async () => {
    const { row, call } = await member({ password: 'correct horse battery' } as Partial<UserRow>);
    await device(row.id);
    await call({ method: 'PUT', url: URL_, payload: { listing_alerts: 'none' } });
    const response = await call({ method: 'GET', url: '/api/account/export' });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json<Record<string, unknown>>();
    expect(data.pushDevices).toEqual([{ device: 'Firefox on Android', createdAt: expect.any(String) }]);
    expect(data.notificationChannels).toMatchObject({ listing_alerts: 'none', proposals: 'push' });
    expect(response.body).not.toContain(ENDPOINT);
    expect(response.body).not.toContain(KEYS.p256dh);
    expect(response.body).not.toContain(KEYS.auth);
  });

  it('migration 0051 carries the old switches over (both databases), in a transaction that is rolled back', async () => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');
    const file = readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => readFileSync(path.join(dir, name), 'utf8'))
      .find((text) => text.includes('CREATE TABLE "notification_channels"'));
    if (!file) throw new Error('the migration of ADR 090 was not found');
    const carryOver = file
      .split('--> statement-breakpoint')
      .map((statement) => statement.trim())
      .filter((statement) => /^(--[^\n]*\n)*INSERT INTO "notification_channels"/.test(statement));
    expect(carryOver).toHaveLength(2);

    const ids = {
      mailOn: '00000000-0000-4000-8000-000000000001',
      mailOff: '00000000-0000-4000-8000-000000000002',
      deviceMailOn: '00000000-0000-4000-8000-000000000003',
      deviceMailOff: '00000000-0000-4000-8000-000000000004',
      deviceMuted: '00000000-0000-4000-8000-000000000005',
      circlesMuted: '00000000-0000-4000-8000-000000000006',
    };
    let result: { user_id: string; kind_group: string; channel: string }[] = [];
    await t.app.db
      .transaction(async (tx: Db) => {
        // Tables as they stood before the migration, in the session's own schema (found first).
        await tx.execute(
          sql`CREATE TEMP TABLE users (id uuid, mail_proposals boolean, mail_messages boolean) ON COMMIT DROP`,
        );
        await tx.execute(sql`CREATE TEMP TABLE push_subscriptions (user_id uuid) ON COMMIT DROP`);
        await tx.execute(sql`CREATE TEMP TABLE push_muted_kinds (user_id uuid, kind text) ON COMMIT DROP`);
        await tx.execute(
          sql`CREATE TEMP TABLE notification_channels (user_id uuid, kind_group text, channel text) ON COMMIT DROP`,
        );
        await tx.execute(sql`INSERT INTO users VALUES
          (${ids.mailOn}::uuid, true, true), (${ids.mailOff}::uuid, false, true),
          (${ids.deviceMailOn}::uuid, true, true), (${ids.deviceMailOff}::uuid, false, false),
          (${ids.deviceMuted}::uuid, true, false), (${ids.circlesMuted}::uuid, true, true)`);
        await tx.execute(sql`INSERT INTO push_subscriptions VALUES
          (${ids.deviceMailOn}::uuid), (${ids.deviceMailOff}::uuid), (${ids.deviceMuted}::uuid)`);
        const circleKinds = NOTIFICATION_KINDS.filter((kind) => GROUP_OF_KIND[kind] === 'circles');
        await tx.execute(sql`INSERT INTO push_muted_kinds
          SELECT ${ids.deviceMuted}::uuid, k FROM unnest(${'{proposal_received,message_received,rating_received}'}::text[]) k
          UNION ALL SELECT ${ids.circlesMuted}::uuid, k FROM unnest(${`{${circleKinds.join(',')}}`}::text[]) k`);
        for (const statement of carryOver) await tx.execute(sql.raw(statement));
        result = await queryRows(
          tx,
          sql`SELECT user_id::text, kind_group, channel FROM notification_channels ORDER BY user_id, kind_group`,
        );
        throw new Error('roll back');
      })
      .catch((error: Error) => {
        if (error.message !== 'roll back') throw error;
      });
    expect(result).toEqual([
      // Mail off, no device: none (the default would mail them).
      { user_id: ids.mailOff, kind_group: 'proposals', channel: 'none' },
      // A device that got everything and mail off: push by default, no row.
      // A device that did not get proposals (muted) with mail on: the digest; messages muted and
      // mail off: none. A muted rating alone (part of the barters group) keeps the group pushed.
      { user_id: ids.deviceMuted, kind_group: 'messages', channel: 'none' },
      { user_id: ids.deviceMuted, kind_group: 'proposals', channel: 'digest' },
      // Every circle kind muted: circles none.
      { user_id: ids.circlesMuted, kind_group: 'circles', channel: 'none' },
    ]);
  });
});
