import {
  expect,
  expectAccessible,
  expectFitsPhone,
  memberApi,
  milesNorth,
  ownSpot,
  passGate,
  signInThroughApi,
  test,
  uniqueEmail,
} from './fixtures';
import { shownName } from './support/shown-name';

/**
 * Ratings are revealed together (issue 30, ADR 074), as two neighbors live it in two browsers: after
 * a completed barter Ann rates first; she sees her rating and that Ben does not see it yet, Ben sees
 * only that she rated, and neither her rating nor its stars reach his page. Ben rates: both ratings
 * appear on both pages, without a reload, and on his member page.
 */

const password = 'quiet harbour 17';

test.describe('ratings revealed together @desktop-only', () => {
  test('the first rating stays hidden until the other member rates, then both appear', async ({
    gatedPage: ann,
    baseURL,
    browser,
  }) => {
    test.setTimeout(120_000);
    const origin = ownSpot();
    const annEmail = uniqueEmail('ann');
    const benEmail = uniqueEmail('ben');
    const annApi = await memberApi(
      baseURL ?? '',
      { firstName: 'Ann', lastName: 'Arden', email: annEmail, password },
      { location: 'Testville', ...origin },
    );
    const benApi = await memberApi(
      baseURL ?? '',
      { firstName: 'Ben', lastName: 'Birch', email: benEmail, password },
      { location: 'Testville North', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
    );
    const annName = await shownName(benApi, annApi);
    const benName = await shownName(annApi, benApi);
    const benId = ((await (await benApi.get('/api/auth/user')).json()) as { id: string }).id;
    const created = async (api: typeof annApi, url: string, data: object) => {
      const response = await api.post(url, { data });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as { id: number };
    };
    const ok = async (api: typeof annApi, url: string) => {
      const response = await api.post(url);
      expect(response.status(), await response.text()).toBe(200);
    };
    try {
      // A barter between them, accepted and confirmed by both: completed, ready to rate.
      const kettle = await created(annApi, '/api/items', {
        title: 'Stovetop kettle',
        description: 'Whistles.',
        category: 'household',
      });
      const plant = await created(benApi, '/api/items', {
        title: 'Monstera cutting',
        description: 'Rooted in water.',
        category: 'farm+garden',
      });
      const barter = await created(annApi, '/api/barter-requests', {
        offeredItemIds: [kettle.id],
        requestedItemIds: [plant.id],
      });
      await ok(benApi, `/api/barter-requests/${barter.id}/accept`);
      await ok(annApi, `/api/barter-requests/${barter.id}/confirm`);
      await ok(benApi, `/api/barter-requests/${barter.id}/confirm`);

      const benContext = await browser.newContext();
      try {
        const ben = await benContext.newPage();
        await passGate(ben);
        await signInThroughApi(ben, { email: benEmail, password });
        await signInThroughApi(ann, { email: annEmail, password });
        await ann.goto(`/barters/${barter.id}`);
        await ben.goto(`/barters/${barter.id}`);
        const annRatings = ann.getByRole('region', { name: 'Ratings' });
        const benRatings = ben.getByRole('region', { name: 'Ratings' });

        // --- Ann rates first: she sees her rating, and that Ben does not see it yet. ---
        const annForm = ann.getByRole('form', { name: `Rate ${benName}` });
        await annForm.getByRole('radio', { name: '2 stars' }).check();
        await annForm.getByLabel('Comment (optional)').fill('Came an hour late');
        await annForm.getByRole('button', { name: 'Rate' }).click();
        await expect(annForm).toBeHidden();
        await expect(annRatings.getByRole('img', { name: '2 out of 5 stars' })).toBeVisible();
        await expect(
          annRatings.getByText(`Hidden from ${benName} until they rate this barter too`),
        ).toBeVisible();
        await expect(annRatings.getByText(`${benName} has not rated this barter yet.`)).toBeVisible();
        await expectAccessible(ann);
        await expectFitsPhone(ann);

        // --- Ben hears that Ann rated (live), but not how. ---
        await expect(
          benRatings.getByText(`${annName} rated this barter. Their rating is hidden until you rate it too`),
        ).toBeVisible();
        await expect(benRatings.getByRole('img')).toHaveCount(0);
        await expect(ben.getByText('Came an hour late')).toHaveCount(0);
        await expectAccessible(ben);
        await expectFitsPhone(ben);
        // Nor does anyone else: Ben's member page lists no rating yet.
        const hidden = await annApi.get(`/api/members/${benId}/ratings`);
        expect((await hidden.json()) as unknown[]).toEqual([]);

        // --- Ben rates: both appear on both pages, without a reload. ---
        const benForm = ben.getByRole('form', { name: `Rate ${annName}` });
        await benForm.getByRole('radio', { name: '5 stars' }).check();
        await benForm.getByRole('button', { name: 'Rate' }).click();
        await expect(benForm).toBeHidden();
        await expect(benRatings.getByRole('img', { name: '2 out of 5 stars' })).toBeVisible();
        await expect(benRatings.getByText('Came an hour late')).toBeVisible();
        await expect(benRatings.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
        await expect(annRatings.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
        await expect(annRatings.getByText(/Hidden from/)).toHaveCount(0);
        await expectAccessible(ben);

        // Ben's member page now shows Ann's rating.
        await ann.goto(`/members/${benId}`);
        await expect(ann.getByText('Came an hour late')).toBeVisible();
        await expectAccessible(ann);
      } finally {
        await benContext.close();
      }
    } finally {
      await annApi.dispose();
      await benApi.dispose();
    }
  });
});
