import { eq, sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_OF_KIND } from '#common/notification-channels.ts';
import { NOTIFICATION_KINDS } from '#common/notification-text.ts';
import type { PushDevice, PushKinds } from '#common/schemas/push.ts';
import { queryRows } from '../../db/rows';
import type { UserRow } from '../../db/schema/users';
import { pushDeliveries, pushSubscriptions, webPushKeys } from '../../db/schema/web-push';
import { createBarterRequest, createItem, createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { startTestPushService, type TestPushService } from '../../test/push-service';
import { notifyMember } from './notify';
import { DEVICES_PER_MEMBER } from './push-subscriptions';
import { hasPushSentence } from './push-text';

const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('Web Push (ADR 087)', () => {
  let t: TestApp;
  let push: TestPushService;

  beforeAll(async () => {
    push = await startTestPushService();
    // The local push service is the only one this server may post to (and only on loopback).
    t = await buildTestApp({ WEB_PUSH_SERVICE_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await push.close();
  });

  const signedIn = async (values: Partial<UserRow> = {}) => {
    const member = await createUser(t.app.db, values);
    const cookies = await sessionCookiesFor(t.app, member);
    const call = (options: InjectOptions) => t.app.inject({ cookies, ...options });
    return { member, call };
  };
  /** A device of the member's, subscribed through the API as the service worker does. */
  const subscribed = async (
    call: (options: InjectOptions) => Promise<LightMyRequestResponse>,
    userAgent = FIREFOX_ANDROID,
  ) => {
    const device = push.device();
    const response = await call({
      method: 'POST',
      url: '/api/push/subscriptions',
      headers: { 'user-agent': userAgent },
      payload: device.subscription,
    });
    expect(response.statusCode, response.body).toBe(201);
    return { ...device, row: response.json<PushDevice>() };
  };
  const notify = (
    userId: string,
    actorId: string | null,
    kind: (typeof NOTIFICATION_KINDS)[number],
    barterRequestId: number | null,
  ) => t.app.db.transaction((tx) => notifyMember(tx, { userId, actorId, kind, barterRequestId }));
  const waitingFor = async (userId: string) =>
    (
      await t.app.db
        .select({ id: pushDeliveries.id })
        .from(pushDeliveries)
        .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
        .where(eq(pushSubscriptions.userId, userId))
    ).length;

  it('makes one VAPID key pair, keeps it in the database and gives its public key to members', async () => {
    const { call } = await signedIn();
    const first = await call({ method: 'GET', url: '/api/push/key' });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json<{ publicKey: string }>();
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const stored = await t.app.db.select().from(webPushKeys);
    expect(stored).toEqual([expect.objectContaining({ id: 1, publicKey })]);
    expect((await call({ method: 'GET', url: '/api/push/key' })).json()).toEqual({ publicKey });
    expect((await t.app.inject({ method: 'GET', url: '/api/push/key' })).statusCode).toBe(401);
  });

  it('pushes a new notification to the member’s device, signed with the site’s key, encrypted, with its text and link', async () => {
    const ann = await createUser(t.app.db, { firstName: 'Ann', lastName: 'Reed' });
    const { member, call } = await signedIn();
    const device = await subscribed(call);
    const trade = await createBarterRequest(t.app.db, { fromUserId: ann.id, toUserId: member.id });
    await notify(member.id, ann.id, 'proposal_received', trade.id);

    const received = await push.next(device.id);
    const { publicKey } = (await call({ method: 'GET', url: '/api/push/key' })).json<{ publicKey: string }>();
    expect(received.vapidKey).toBe(publicKey);
    expect(received.claims.aud).toBe(push.origin);
    expect(received.claims.sub).toBe('mailto:support@barterhood.example');
    expect(received.ttl).toBeGreaterThan(0);
    expect(received.payload).toEqual({
      title: 'Barterhood',
      body: 'Ann R. proposed a barter',
      url: `/barters/${trade.id}`,
      tag: expect.stringMatching(/^notification-\d+$/),
    });
    // Sent once: the outbox row goes.
    await expect.poll(() => waitingFor(member.id), { timeout: 10_000, interval: 20 }).toBe(0);
    expect(push.attempts(device.id)).toBe(1);
  });

  it('writes the push in the member’s language', async () => {
    const ann = await createUser(t.app.db, { firstName: 'Ana', lastName: 'Ruiz' });
    const { member, call } = await signedIn({ locale: 'es' });
    const device = await subscribed(call);
    const trade = await createBarterRequest(t.app.db, { fromUserId: ann.id, toUserId: member.id });
    await notify(member.id, ann.id, 'proposal_accepted', trade.id);
    expect((await push.next(device.id)).payload).toMatchObject({
      body: 'Ana R. aceptó tu propuesta',
      url: `/barters/${trade.id}`,
    });
  });

  it('has a sentence for every kind of notification', () => {
    expect(NOTIFICATION_KINDS.filter((kind) => !hasPushSentence(kind))).toEqual([]);
  });

  it('pushes to every device of the member, and to nobody else', async () => {
    const { member, call } = await signedIn();
    const phone = await subscribed(call);
    const laptop = await subscribed(call, CHROME_WINDOWS);
    const other = await signedIn();
    const othersDevice = await subscribed(other.call);
    await notify(member.id, null, 'proposal_expired', null);
    const bodies = [await push.next(phone.id), await push.next(laptop.id)].map(
      (received) => received.payload,
    );
    expect(bodies).toEqual([
      expect.objectContaining({ body: 'A proposal expired after 14 days', url: '/' }),
      expect.objectContaining({ body: 'A proposal expired after 14 days', url: '/' }),
    ]);
    await expect.poll(() => waitingFor(member.id), { timeout: 10_000, interval: 20 }).toBe(0);
    expect(push.attempts(othersDevice.id)).toBe(0);
  });

  it('lists every kind, pushes none of a group the member muted, and queues nothing for a rolled-back notification', async () => {
    const { member, call } = await signedIn();
    const device = await subscribed(call);
    const kinds = (await call({ method: 'GET', url: '/api/push/kinds' })).json<PushKinds>();
    expect(kinds.kinds.map((entry) => entry.kind)).toEqual([...NOTIFICATION_KINDS]);
    // With a device, every kind is pushed by default (ADR 090).
    expect(kinds.kinds.every((entry) => entry.push)).toBe(true);

    // Kinds are muted a group at a time (ADR 090): the barters' progress, rating_received with it.
    const barters = NOTIFICATION_KINDS.filter((kind) => GROUP_OF_KIND[kind] === 'barters');
    const muted = await call({ method: 'PUT', url: '/api/push/kinds', payload: { muted: barters } });
    expect(muted.statusCode, muted.body).toBe(200);
    expect(muted.json<PushKinds>().kinds.find((entry) => entry.kind === 'rating_received')?.push).toBe(false);
    await notify(member.id, null, 'rating_received', null);
    expect(await waitingFor(member.id)).toBe(0);
    await expect(
      t.app.db.transaction(async (tx) => {
        await notifyMember(tx, {
          userId: member.id,
          actorId: null,
          kind: 'circle_expired',
          barterRequestId: null,
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await waitingFor(member.id)).toBe(0);
    await notify(member.id, null, 'moderation_warning', null);
    // The first push the device gets is the one not muted.
    expect((await push.next(device.id)).payload).toMatchObject({
      body: expect.stringMatching(/^A moderator warned you/),
    });
    expect(push.attempts(device.id)).toBe(1);

    for (const payload of [
      { muted: ['not_a_kind'] },
      { muted: 'rating_received' },
      { muted: [], extra: 1 },
      // Part of a group.
      { muted: ['rating_received'] },
    ]) {
      const refused = await call({ method: 'PUT', url: '/api/push/kinds', payload });
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });

  it('forgets a device whose push service answers 410 Gone or 404', async () => {
    for (const status of [410, 404]) {
      const { member, call } = await signedIn();
      const device = await subscribed(call);
      push.answer(device.id, status);
      await notify(member.id, null, 'proposal_expired', null);
      await expect
        .poll(
          async () => (await call({ method: 'GET', url: '/api/push/subscriptions' })).json<PushDevice[]>(),
          {
            timeout: 10_000,
            interval: 20,
          },
        )
        .toEqual([]);
      expect(await waitingFor(member.id)).toBe(0);
      expect(push.attempts(device.id)).toBe(1);
    }
  });

  it('tries again later when the push service is busy, as long as it asks (Retry-After)', async () => {
    const { member, call } = await signedIn();
    const device = await subscribed(call);
    push.answer(device.id, 429, { 'retry-after': '600' });
    await notify(member.id, null, 'proposal_expired', null);
    const row = async () =>
      (
        await t.app.db
          .select({
            attempts: pushDeliveries.attempts,
            wait: sql<number>`extract(epoch FROM ${pushDeliveries.dueAt} - now())::float8`,
          })
          .from(pushDeliveries)
          .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
          .where(eq(pushSubscriptions.userId, member.id))
      )[0];
    await expect
      .poll(async () => (await row())?.wait ?? 0, { timeout: 10_000, interval: 20 })
      .toBeGreaterThan(300);
    expect(await row()).toMatchObject({ attempts: 1 });
    expect(Number((await row())?.wait)).toBeLessThanOrEqual(600);
    expect(push.attempts(device.id)).toBe(1);
    // The device is kept.
    expect((await call({ method: 'GET', url: '/api/push/subscriptions' })).json<PushDevice[]>()).toHaveLength(
      1,
    );
  });

  it('lists the member’s devices by browser and system, newest first, and removes one; never another member’s', async () => {
    const { call } = await signedIn();
    const phone = await subscribed(call, FIREFOX_ANDROID);
    const laptop = await subscribed(call, CHROME_WINDOWS);
    const list = (await call({ method: 'GET', url: '/api/push/subscriptions' })).json<PushDevice[]>();
    expect(list).toEqual([
      {
        id: laptop.row.id,
        endpoint: laptop.subscription.endpoint,
        device: 'Chrome on Windows',
        createdAt: expect.any(String),
      },
      {
        id: phone.row.id,
        endpoint: phone.subscription.endpoint,
        device: 'Firefox on Android',
        createdAt: expect.any(String),
      },
    ]);

    const other = await signedIn();
    const theirs = await other.call({ method: 'DELETE', url: `/api/push/subscriptions/${phone.row.id}` });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      (await call({ method: 'DELETE', url: `/api/push/subscriptions/${phone.row.id}` })).statusCode,
    ).toBe(204);
    expect(
      (await call({ method: 'DELETE', url: `/api/push/subscriptions/${phone.row.id}` })).statusCode,
    ).toBe(404);
    expect(
      (await call({ method: 'GET', url: '/api/push/subscriptions' })).json<PushDevice[]>().map((d) => d.id),
    ).toEqual([laptop.row.id]);
    for (const id of ['abc', '0', '1e3', '%00', '1%2F2', '99999999999']) {
      const response = await call({ method: 'DELETE', url: `/api/push/subscriptions/${id}` });
      expect(response.statusCode, id).toBe(400);
    }
  });

  it('gives a device subscribed again by another member to that member', async () => {
    const ann = await signedIn();
    const ben = await signedIn();
    const device = await subscribed(ann.call);
    const again = await ben.call({
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: device.subscription,
    });
    expect(again.statusCode).toBe(201);
    expect((await ann.call({ method: 'GET', url: '/api/push/subscriptions' })).json()).toEqual([]);
    expect(
      (await ben.call({ method: 'GET', url: '/api/push/subscriptions' })).json<PushDevice[]>(),
    ).toHaveLength(1);
    await notify(ann.member.id, null, 'proposal_expired', null);
    expect(await waitingFor(ann.member.id)).toBe(0);
  });

  it('refuses endpoints that are not at a push service, and keys that are not keys', async () => {
    const { call } = await signedIn();
    const { subscription } = push.device();
    const cases: unknown[] = [
      { ...subscription, endpoint: 'http://10.0.0.1/push/x' },
      { ...subscription, endpoint: 'https://evil.example/push/x' },
      { ...subscription, endpoint: 'https://127.0.0.1.evil.example/push/x' },
      { ...subscription, endpoint: 'file:///etc/passwd' },
      { ...subscription, endpoint: 'http://user:pass@127.0.0.1/push/x' },
      { ...subscription, endpoint: `${subscription.endpoint}\u0000` },
      { ...subscription, endpoint: 'not a url' },
      { ...subscription, endpoint: `https://fcm.googleapis.com/${'a'.repeat(3000)}` },
      { ...subscription, keys: { ...subscription.keys, p256dh: 'short' } },
      { ...subscription, keys: { p256dh: subscription.keys.p256dh } },
      { endpoint: subscription.endpoint },
    ];
    for (const payload of cases) {
      const response = await call({
        method: 'POST',
        url: '/api/push/subscriptions',
        payload: payload as object,
      });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
      expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await call({ method: 'GET', url: '/api/push/subscriptions' })).json()).toEqual([]);
  });

  it(`keeps at most ${DEVICES_PER_MEMBER} devices a member, the newest`, async () => {
    const { member, call } = await signedIn();
    const devices = [];
    for (let index = 0; index < DEVICES_PER_MEMBER + 3; index++) devices.push(await subscribed(call));
    const list = (await call({ method: 'GET', url: '/api/push/subscriptions' })).json<PushDevice[]>();
    expect(list).toHaveLength(DEVICES_PER_MEMBER);
    expect(new Set(list.map((device) => device.id))).toEqual(
      new Set(devices.slice(3).map((device) => device.row.id)),
    );
    const stored = await t.app.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, member.id));
    expect(stored).toHaveLength(DEVICES_PER_MEMBER);
    // And at most 60 subscribing requests an hour.
    let answered = DEVICES_PER_MEMBER + 3;
    let limited: LightMyRequestResponse | undefined;
    while (!limited && answered <= 60) {
      const response = await call({
        method: 'POST',
        url: '/api/push/subscriptions',
        payload: push.device().subscription,
      });
      answered++;
      if (response.statusCode === 429) limited = response;
      else expect(response.statusCode).toBe(201);
    }
    expect(answered).toBe(61);
    expect(limited?.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('pushes a listing alert with what it matched, opening the item’s page', async () => {
    const { member, call } = await signedIn();
    const device = await subscribed(call);
    const item = await createItem(t.app.db, { title: 'Road bike' });
    await t.app.db.transaction(async (tx) => {
      const [entry] = await queryRows<{ id: number }>(
        tx,
        sql`INSERT INTO notifications (user_id, kind, count) VALUES (${member.id}::uuid, 'listing_alert', 1) RETURNING id`,
      );
      await tx.execute(sql`INSERT INTO listing_alerts (item_id, member_id, notification_id, wave, matched, sent_at)
        VALUES (${item.id}, ${member.id}::uuid, ${entry?.id}, 1, 'road bike', now())`);
    });
    expect((await push.next(device.id)).payload).toMatchObject({
      body: 'New listing matching road bike',
      url: `/items/${item.id}`,
    });
  });
});

describe('Web Push with the operator’s keys', () => {
  it('signs with WEB_PUSH_PUBLIC_KEY and WEB_PUSH_PRIVATE_KEY and stores none', async () => {
    const { default: webpush } = await import('web-push');
    const keys = webpush.generateVAPIDKeys();
    const t = await buildTestApp({
      WEB_PUSH_PUBLIC_KEY: keys.publicKey,
      WEB_PUSH_PRIVATE_KEY: keys.privateKey,
    });
    try {
      const member = await createUser(t.app.db);
      const cookies = await sessionCookiesFor(t.app, member);
      const response = await t.app.inject({ method: 'GET', url: '/api/push/key', cookies });
      expect(response.json()).toEqual({ publicKey: keys.publicKey });
      expect(await t.app.db.select().from(webPushKeys)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
