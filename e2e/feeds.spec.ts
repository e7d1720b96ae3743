import {
  expect,
  expectAccessible,
  memberApi,
  milesNorth,
  ownSpot,
  signInThroughApi,
  test,
  toasts,
  uniqueEmail,
} from './fixtures';

test.describe('feeds, matching, saved items and search', () => {
  test('a neighbour a mile away: match with a reason, radius, Load More, save, search', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, isMobile }) => {
    test.setTimeout(120_000);
    // A spot of our own, far from other journeys' members, so the feeds hold only this test's items.
    const origin = ownSpot();
    const password = 'maple lantern 42';
    const viewerEmail = uniqueEmail('viewer');
    const viewer = await memberApi(
      baseURL ?? '',
      { firstName: 'Vera', lastName: 'Viewer', email: viewerEmail, password },
      { location: 'Testville', ...origin },
    );
    const near = await memberApi(
      baseURL ?? '',
      { firstName: 'Nate', lastName: 'Neighbor', email: uniqueEmail('near'), password },
      { location: 'Testville North', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
    );
    const far = await memberApi(
      baseURL ?? '',
      { firstName: 'Fay', lastName: 'Faraway', email: uniqueEmail('far'), password },
      { location: 'Farton', latitude: origin.latitude + milesNorth(40), longitude: origin.longitude },
    );
    try {
      // Vera wants a drill and offers a bike; Nate offers the drill and wants a bike: a mutual match.
      const post = async (api: typeof viewer, path: string, data: Record<string, unknown>) => {
        const response = await api.post(path, { data });
        expect(response.status(), await response.text()).toBe(201);
      };
      await post(viewer, '/api/wants', { title: 'drill', category: 'tools', maxValue: 120 });
      await post(viewer, '/api/items', {
        title: 'Mountain bike',
        description: 'Trek hardtail, medium frame.',
        category: 'bikes',
        estimatedValue: 200,
      });
      await post(near, '/api/wants', { title: 'Mountain bike', category: 'bikes' });
      await post(near, '/api/items', {
        title: 'Cordless drill, 18V',
        description: 'Two batteries and a charger.',
        category: 'tools',
        estimatedValue: 85,
      });
      for (let i = 1; i <= 21; i++) {
        await post(near, '/api/items', {
          title: `Garden odds and ends ${i}`,
          description: 'Pots, stakes and twine.',
          category: 'farm+garden',
        });
      }
      await post(far, '/api/items', {
        title: 'Far away canoe',
        description: 'A red canoe.',
        category: 'boats',
      });

      // Signing in is not what this journey tests: through the API, as the form would (e2e/fixtures.ts).
      await signInThroughApi(page, { email: viewerEmail, password });
      await page.goto('/');

      // Barter Match: the drill, with a real score and both reasons.
      const drill = page.getByRole('article', { name: 'Cordless drill, 18V' });
      await expect(drill).toBeVisible();
      await expect(drill.getByText(/^\d{1,3}% match$/)).toBeVisible();
      await expect(drill.getByText('Matches your want: drill')).toBeVisible();
      await expect(drill.getByText('They want Mountain bike')).toBeVisible();
      // About a mile: between the two public points (each up to 0.94 miles off; ADR 015, 059).
      await expect(drill.getByText(/^[0-2]\.\d mi$/)).toBeVisible();
      await expect(drill.getByText('New trader')).toBeVisible();
      await expect(drill.getByText('Looking for:').locator('..')).toHaveText('Looking for: Mountain bike');
      await expectAccessible(page);

      // Everything: the 22 nearby items, 20 at a time, no repeats, no score; the canoe 40 miles away is
      // outside the default 25 miles, inside 50, and outside 5 again.
      await page.getByRole('tab', { name: 'Everything' }).click();
      await expect(page.getByRole('article')).toHaveCount(20);
      await expect(page.getByText(/% match/)).toHaveCount(0);
      await page.getByRole('button', { name: 'Load More Items' }).click();
      await expect(page.getByRole('article')).toHaveCount(22);
      const titles = await page.getByRole('article').locator('h3').allTextContents();
      expect(new Set(titles).size).toBe(22);
      await expect(page.getByRole('button', { name: 'Load More Items' })).toHaveCount(0);
      await expect(page.getByRole('article', { name: 'Cordless drill, 18V' })).toBeVisible();
      await expect(page.getByRole('article', { name: 'Far away canoe' })).toHaveCount(0);
      await page.getByLabel('Distance').selectOption('50');
      await expect(page.getByRole('article', { name: 'Far away canoe' })).toBeVisible();
      await page.getByLabel('Distance').selectOption('5');
      await expect(page.getByRole('article', { name: 'Garden odds and ends 21' })).toBeVisible();
      await expect(page.getByRole('article', { name: 'Far away canoe' })).toHaveCount(0);

      // The detail view, from Barter Match where the drill is the one match.
      await page.getByRole('tab', { name: 'Barter Match' }).click();
      await page.getByRole('button', { name: 'Cordless drill, 18V', exact: true }).click();
      const detail = page.getByRole('dialog', { name: 'Cordless drill, 18V' });
      await expect(detail.getByText('Two batteries and a charger.')).toBeVisible();
      await expect(detail.getByText('Offered by')).toContainText('Nate N'); // "Nate N.", or a letter more near a namesake (ADR 058)
      await expectAccessible(page);
      await page.keyboard.press('Escape');

      // Save: toast, then it is on the Saved tab.
      await page.getByRole('button', { name: 'Save Cordless drill, 18V' }).click();
      await expect(toasts(page).getByText('Item added to your saved list')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Unsave Cordless drill, 18V' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await page.goto('/profile?tab=saved');
      await expect(page.getByRole('heading', { name: 'Saved Items (1)' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Cordless drill, 18V' })).toBeVisible();
      await expectAccessible(page);

      // Search: "drill" and the misspelt "dril" both find it.
      for (const text of ['drill', 'dril']) {
        await page.goto('/');
        const box = isMobile ? page.locator('#mobile-search') : page.locator('#header-search');
        await box.fill(text);
        await box.press('Enter');
        // The results page reads all listings within the distance (ADR 089): no tab to choose.
        await expect(page.getByRole('heading', { level: 1, name: `Results for “${text}”` })).toBeVisible();
        await expect(page.getByRole('article', { name: 'Cordless drill, 18V' })).toBeVisible();
        await expect(page.getByRole('article', { name: 'Garden odds and ends 1' })).toHaveCount(0);
      }
    } finally {
      await Promise.all([viewer.dispose(), near.dispose(), far.dispose()]);
    }
  });
});
