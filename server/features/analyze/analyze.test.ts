import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import { imageAnalysisSchema } from '#common/schemas/analyze.ts';
import { createUser, sessionCookiesFor } from '../../test/factories';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { pngBomb, solidImage, toDataUrl } from '../../test/images';
import { blankPng, bookCoverPng } from './test-images';

const RATE_LIMIT = 4;

describe('POST /api/analyze-image (AI_PROVIDER=local)', () => {
  let t: TestApp;
  let cookies: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp({ ANALYZE_RATE_LIMIT: String(RATE_LIMIT) });
    cookies = await sessionCookiesFor(t.app, await createUser(t.database.db));
  });
  afterAll(() => t.close());
  // The limiter counts in windows of Date.now(); only Date is faked, so I/O timers run normally.
  afterEach(() => {
    vi.useRealTimers();
  });

  /** `as`: the session cookies, or null for a signed-out request. */
  const analyze = (payload: unknown, as: Record<string, string> | null = cookies, remoteAddress?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/analyze-image',
      payload: payload as object,
      cookies: as ?? undefined,
      remoteAddress,
    });
  const newMember = async () => sessionCookiesFor(t.app, await createUser(t.database.db));

  it('suggests the details of a book from a photo of its cover', async () => {
    const response = await analyze(
      { image: toDataUrl(await bookCoverPng(), 'image/png') },
      await newMember(),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = imageAnalysisSchema.parse(response.json());
    expect(body).toMatchObject({
      provider: 'local',
      title: 'The Hobbit',
      category: 'books',
      isService: false,
    });
    expect(body.estimatedValue).toBeUndefined();
    expect(Object.keys(body.confidence).sort()).toEqual(['category', 'description', 'title']);
  });

  it('answers with no details, only the provider, for a blank photo', async () => {
    const response = await analyze({ image: toDataUrl(await blankPng(), 'image/png') }, await newMember());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ provider: 'local', confidence: {} });
  });

  it('is for signed-in members only, whatever the body', async () => {
    for (const payload of [{ image: toDataUrl(await blankPng(), 'image/png') }, {}, { image: 42 }]) {
      const response = await analyze(payload, null, '10.9.0.1');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: expect.any(String), code: 'UNAUTHORIZED' });
    }
  });

  describe('checks the photo exactly like an item photo', () => {
    it('refuses a body without an image, and unknown fields', async () => {
      const as = await newMember();
      expect((await analyze({}, as)).json().code).toBe('VALIDATION_FAILED');
      const extra = await analyze({ image: toDataUrl(await blankPng(), 'image/png'), title: 'x' }, as);
      expect(extra.statusCode).toBe(400);
      expect(extra.json().code).toBe('VALIDATION_FAILED');
    });

    it('refuses what is not a photo with 400 INVALID_PHOTO', async () => {
      const notPhotos = [
        'https://example.com/photo.jpg',
        toDataUrl(Buffer.from('just some text'), 'text/plain'),
        toDataUrl(Buffer.from('just some text'), 'image/png'),
        toDataUrl(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'),
        toDataUrl(Buffer.from('GIF89a........'), 'image/gif'),
      ];
      for (const image of notPhotos) {
        const response = await analyze({ image }, await newMember());
        expect(response.statusCode, image.slice(0, 40)).toBe(400);
        expect(response.json()).toEqual({
          message: 'That file is not a photo we can read. Use a JPEG, PNG or WebP image.',
          code: 'INVALID_PHOTO',
        });
      }
    });

    it('refuses a damaged photo whose header reads fine with 400, never 500', async () => {
      const jpeg = await solidImage(400, 300, 'jpeg');
      const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2));
      const response = await analyze({ image: toDataUrl(truncated) }, await newMember());
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('INVALID_PHOTO');
    });

    it('refuses a photo over the size limit with 413 PHOTO_TOO_LARGE before decoding it', async () => {
      const image = `data:image/jpeg;base64,${'A'.repeat(Math.ceil(((PHOTO_MAX_BYTES + 3) * 4) / 3 / 4) * 4)}`;
      const response = await analyze({ image }, await newMember());
      expect(response.statusCode).toBe(413);
      expect(response.json().code).toBe('PHOTO_TOO_LARGE');
    });

    it('refuses a decompression bomb with 400 PHOTO_TOO_MANY_PIXELS', async () => {
      const response = await analyze({ image: toDataUrl(pngBomb(), 'image/png') }, await newMember());
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('PHOTO_TOO_MANY_PIXELS');
    });
  });

  it(`limits each member to ${RATE_LIMIT} analyses a minute with 429 RATE_LIMITED, then recovers`, async () => {
    const member = await newMember();
    // Refused photos count too: the limit is checked before the body is read.
    const image = toDataUrl(Buffer.from('not a photo'), 'image/png');
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT; i++) statuses.push((await analyze({ image }, member)).statusCode);
    expect(statuses).toEqual([...Array(RATE_LIMIT).fill(400), 429]);

    const limited = await analyze({ image: toDataUrl(await blankPng(), 'image/png') }, member);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: expect.stringContaining('Too many'), code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Another member on the same address is not affected.
    expect((await analyze({ image }, await newMember())).statusCode).toBe(400);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect((await analyze({ image: toDataUrl(await blankPng(), 'image/png') }, member)).statusCode).toBe(200);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    expect(Object.keys(doc.paths['/api/analyze-image'].post.responses).sort()).toEqual(
      ['200', '400', '401', '413', '429', '502', '503'].sort(),
    );
  });
});
