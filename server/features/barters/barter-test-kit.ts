import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import type { ItemRow } from '../../db/schema/trading';
import { memberEvents, notifications } from '../../db/schema/trading';
import type { UserRow } from '../../db/schema/users';
import { createItem, createUser, sessionCookiesFor } from '../../test/factories';
import type { TestApp } from '../../test/helpers';

/** Text no barter or message answer may contain: e-mail addresses (factories) and positions. */
export const PRIVATE_TEXT = [/@example\.test/, /latitude/i, /longitude/i, /"email"/i];

/** An approximate area's rounded centre (two decimals at most): anything finer still fails the check. */
const APPROXIMATE_CENTRE =
  /"approximateArea":\{"latitude":-?\d+(?:\.\d{1,2})?,"longitude":-?\d+(?:\.\d{1,2})?,/g;

export interface Member {
  user: UserRow;
  id: string;
  cookies: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The barter tests' helpers on one app: members with positions (so a leak of one would show),
 * their items, calls that check every answer for private data, and the notifications and events
 * stored for a request.
 */
export function barterKit(t: TestApp) {
  const db = () => t.app.db;
  let members = 0;

  async function member(firstName: string, place = { latitude: 45.52, longitude: -122.68 }): Promise<Member> {
    members++;
    const user = await createUser(db(), {
      firstName,
      lastName: `Tester${members}`,
      latitude: place.latitude + members * 0.001,
      longitude: place.longitude,
    });
    return { user, id: user.id, cookies: await sessionCookiesFor(t.app, user) };
  }

  const item = (owner: Member, overrides: Partial<ItemRow> = {}) =>
    createItem(db(), { userId: owner.id, category: 'tools', ...overrides });

  /** A request as `who`; every answer is checked for e-mails and positions. */
  async function call(who: Member | null, method: Method, url: string, payload?: unknown) {
    const response = await t.app.inject({
      method,
      url,
      ...(who ? { cookies: who.cookies } : {}),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    // The one position allowed out: an approximate area's centre, rounded to 0.01 degrees (ADR 032).
    const body = response.body.replace(APPROXIMATE_CENTRE, '"approximateArea":{');
    for (const pattern of PRIVATE_TEXT) expect(body, `${method} ${url}`).not.toMatch(pattern);
    return response;
  }

  /** The JSON of an answer with the expected status (the body in the failure message). */
  function ok<T = Barter>(response: LightMyRequestResponse, status = 200): T {
    expect(response.statusCode, response.body).toBe(status);
    return response.json<T>();
  }

  /** An error answer: status and code. */
  function refused(response: LightMyRequestResponse, status: number, code: string) {
    expect({ status: response.statusCode, code: response.json().code }, response.body).toEqual({
      status,
      code,
    });
    expect(typeof response.json().message).toBe('string');
    return response.json<{ code: string; message: string }>();
  }

  const propose = (from: Member, offered: number[], requested: number[], message?: string) =>
    call(from, 'POST', '/api/barter-requests', {
      offeredItemIds: offered,
      requestedItemIds: requested,
      ...(message ? { message } : {}),
    });

  /** A fresh pending proposal from `from` (one new item) for one new item of `to`. */
  async function pending(from: Member, to: Member) {
    const offered = await item(from);
    const requested = await item(to);
    const barter = ok(await propose(from, [offered.id], [requested.id]), 201);
    return { barter, offered, requested };
  }

  const act = (who: Member, id: number, action: string, payload?: unknown) =>
    call(who, 'POST', `/api/barter-requests/${id}/${action}`, payload);
  const get = (who: Member, id: number) => call(who, 'GET', `/api/barter-requests/${id}`);

  /** The kinds of the notifications of `userId` about request `requestId`, oldest first. */
  async function notificationKinds(userId: string, requestId: number): Promise<string[]> {
    const rows = await db()
      .select({ kind: notifications.kind })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.barterRequestId, requestId)))
      .orderBy(asc(notifications.id));
    return rows.map((row) => row.kind);
  }

  /** The 'barter' events stored for these members about request `requestId`. */
  async function barterEventsFor(userIds: string[], requestId: number) {
    return db()
      .select({ userId: memberEvents.userId, data: memberEvents.data })
      .from(memberEvents)
      .where(
        and(
          inArray(memberEvents.userId, userIds),
          eq(memberEvents.type, 'barter'),
          sql`(${memberEvents.data}->>'barterRequestId')::int = ${requestId}::int`,
        ),
      );
  }

  return {
    db,
    member,
    item,
    call,
    ok,
    refused,
    propose,
    pending,
    act,
    get,
    notificationKinds,
    barterEventsFor,
  };
}
