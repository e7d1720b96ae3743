import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { formBody } from '../../test/forms';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { jpegWithGpsAndOrientation, solidImage } from '../../test/images';

/** The photo as the profile page's form sends it. */
const photoForm = (bytes: Buffer, type = 'image/jpeg', field = 'photo') =>
  formBody({}, { bytes, type, field, name: 'me.jpg' });

describe('the profile photo (the listings’ photo pipeline)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('is checked, re-encoded without EXIF, shown on the member page, and removable', async () => {
    const member = await createUser(t.database.db, { firstName: 'Pia' });
    const viewer = await createUser(t.database.db, { firstName: 'Vic' });
    const cookies = await sessionCookiesFor(t.app, member);
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      cookies,
      ...(await photoForm(await jpegWithGpsAndOrientation())),
    });
    expect(set.statusCode, set.body).toBe(200);
    const url = set.json().profileImageUrl as string;
    expect(url).toMatch(/^\/photos\/.+\.webp$/);
    const file = await t.app.inject({ method: 'GET', url, cookies });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    const page = await t.app.inject({
      method: 'GET',
      url: `/api/members/${member.id}`,
      cookies: await sessionCookiesFor(t.app, viewer),
    });
    expect(page.json().profileImageUrl).toBe(url);

    const removed = await t.app.inject({ method: 'DELETE', url: '/api/user/photo', cookies });
    expect(removed.json().profileImageUrl).toBeNull();
  });

  it('refuses what is not a photo, and a form without one', async () => {
    const member = await createUser(t.database.db, { firstName: 'Rex' });
    const cookies = await sessionCookiesFor(t.app, member);
    const notPhoto = await t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      cookies,
      ...(await photoForm(Buffer.from('<svg onload=alert(1)>'), 'image/svg+xml')),
    });
    expect(notPhoto.statusCode).toBe(400);
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/user/photo',
      cookies,
      ...(await photoForm(await solidImage(20, 20, 'jpeg'), 'image/jpeg', 'other')),
    });
    expect(noFile.statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/photo', cookies, payload: {} })).statusCode,
    ).toBe(400);
  });
});
