import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem, createUser, createWant, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';

/** The guided start after registering (issue 17): its steps follow what the member has. */
describe('GET and PUT /api/account/getting-started', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const newcomer = async () => {
    const user = await createUser(t.database.db, { firstName: 'Nia' });
    return { user, cookies: await sessionCookiesFor(t.app, user) };
  };
  const get = (cookies?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/account/getting-started', cookies });
  const put = (cookies: Record<string, string> | undefined, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/account/getting-started',
      payload: payload as object,
      cookies,
    });

  it('starts with nothing done, and each step is done once the member has it, however it was made', async () => {
    const { user, cookies } = await newcomer();
    expect((await get(cookies)).json()).toEqual({ area: false, want: false, item: false, completed: false });

    const located = await t.app.inject({
      method: 'PUT',
      url: '/api/user/profile',
      cookies,
      payload: {
        location: 'Portland, Oregon, United States',
        latitude: 45.5,
        longitude: -122.6,
        maxTravelDistance: 5,
      },
    });
    expect(located.statusCode).toBe(200);
    expect((await get(cookies)).json()).toMatchObject({ area: true, want: false, item: false });

    await createWant(t.database.db, { userId: user.id });
    expect((await get(cookies)).json()).toMatchObject({ area: true, want: true, item: false });
    await createItem(t.database.db, { userId: user.id, isActive: false });
    expect((await get(cookies)).json()).toEqual({ area: true, want: true, item: true, completed: false });
  });

  it("counts only the member's own wants and items", async () => {
    const { cookies } = await newcomer();
    const other = await createUser(t.database.db);
    await createWant(t.database.db, { userId: other.id });
    await createItem(t.database.db, { userId: other.id });
    expect((await get(cookies)).json()).toMatchObject({ want: false, item: false });
  });

  it('is skipped and brought back, remembered for the member on every device', async () => {
    const { user, cookies } = await newcomer();
    // A read first, so the session (and the member row) sits in the session cache.
    expect((await get(cookies)).json()).toMatchObject({ completed: false });
    const skipped = await put(cookies, { completed: true });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toMatchObject({ completed: true, area: false });
    // The same session reads it at once (the cached member row was dropped).
    expect((await get(cookies)).json()).toMatchObject({ completed: true });
    const otherDevice = await sessionCookiesFor(t.app, user);
    expect((await get(otherDevice)).json()).toMatchObject({ completed: true });
    expect((await put(otherDevice, { completed: false })).json()).toMatchObject({ completed: false });
    expect((await get(cookies)).json()).toMatchObject({ completed: false });
  });

  it('refuses anonymous calls and malformed bodies with 4xx, changing nothing', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await put(undefined, { completed: true })).statusCode).toBe(401);
    const { cookies } = await newcomer();
    for (const payload of [
      {},
      { completed: 'yes' },
      { completed: true, extra: 1 },
      [],
      { completed: null },
    ]) {
      const response = await put(cookies, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // Not JSON at all.
    expect((await put(cookies, 'true')).statusCode).toBe(415);
    expect((await get(cookies)).json()).toMatchObject({ completed: false });
  });
});
