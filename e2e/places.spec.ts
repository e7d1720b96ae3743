import type { Place } from '#common/schemas/places.ts';
import { expect, expectAccessible, memberApi, signInThroughApi, test, toasts, uniqueEmail } from './fixtures';

/**
 * Issue 17, "places a neighbour recognises": a member picks their area by ZIP code, a neighbour by
 * neighborhood, about a mile apart; they see about a mile between them (not "0.0 mi" as when both
 * picked "Portland"), the 5-mile filter leaves out a town 10 miles away, and the item and member
 * pages show the approximate area (in words, and on a map of the server's own base here: no tile
 * server is configured, ADR 086).
 */
test.describe('places a neighbour recognises', () => {
  test('a ZIP code and a neighborhood a mile apart: about a mile, the 5-mile filter, the area', async ({
    gatedPage: page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const password = 'maple lantern 42';
    const run = Date.now().toString(36);
    const annEmail = uniqueEmail('places-ann');
    const ann = await memberApi(baseURL ?? '', {
      firstName: 'Ann',
      lastName: 'Zip',
      email: annEmail,
      password,
    });
    const ben = await memberApi(baseURL ?? '', {
      firstName: 'Ben',
      lastName: 'Hood',
      email: uniqueEmail('places-ben'),
      password,
    });
    const cal = await memberApi(baseURL ?? '', {
      firstName: 'Cal',
      lastName: 'Town',
      email: uniqueEmail('places-cal'),
      password,
    });
    try {
      /** A member's own search, then the first suggestion saved as their location. */
      const pickPlace = async (api: typeof ben, q: string, expected: string) => {
        const found = await api.get(`/api/places/search?q=${encodeURIComponent(q)}`);
        expect(found.status(), await found.text()).toBe(200);
        const [place] = (await found.json()) as Place[];
        expect(place?.displayName).toBe(expected);
        const saved = await api.put('/api/user/profile', {
          data: {
            location: place?.displayName,
            latitude: place?.latitude,
            longitude: place?.longitude,
            maxTravelDistance: 25,
          },
        });
        expect(saved.status(), await saved.text()).toBe(200);
      };
      // Ben in Buckman, a neighborhood; Cal in Gresham, a town about 10 miles east of Ann.
      await pickPlace(ben, 'Buckman', 'Buckman, Portland, Oregon, United States');
      await pickPlace(cal, 'Gresham', 'Gresham, Oregon, United States');
      const post = async (api: typeof ben, title: string) => {
        const response = await api.post('/api/items', {
          data: { title, description: 'Ready to trade.', category: 'tools' },
        });
        expect(response.status(), await response.text()).toBe(201);
      };
      const benItem = `Ladder ${run}`;
      const calItem = `Wheelbarrow ${run}`;
      await post(ben, benItem);
      await post(cal, calItem);

      // Ann picks her area by ZIP code in the profile's location picker.
      // Signing in is not what this journey tests: through the API, as the form would (e2e/fixtures.ts).
      await signInThroughApi(page, { email: annEmail, password });
      await page.goto('/profile');
      const location = page.getByRole('combobox', { name: 'Location' });
      await location.pressSequentially('97232');
      const zip = page.getByRole('option', { name: '97232, Portland, Oregon, United States' });
      await expect(zip).toBeVisible();
      await expectAccessible(page);
      await zip.click();
      await expect(location).toHaveValue('97232, Portland, Oregon, United States');
      await page.getByRole('button', { name: 'Update Profile' }).click();
      await expect(toasts(page).getByText('Success')).toBeVisible();
      await expect(page.getByRole('main').getByText('97232, Portland, Oregon, United States')).toBeVisible();

      // About a mile to Ben (between the two public points, each up to 0.94 miles off; ADR 015, 059).
      await page.goto('/');
      await page.getByRole('tab', { name: 'Everything' }).click();
      await page.getByLabel('Distance').selectOption('5');
      const ladder = page.getByRole('article', { name: benItem });
      await expect(ladder).toBeVisible();
      await expect(ladder.getByText(/^[0-2]\.\d mi$/)).toBeVisible();
      // The 5-mile filter tells the neighbour from the town 10 miles away; 25 miles reaches it.
      await expect(page.getByRole('article', { name: calItem })).toHaveCount(0);
      await page.getByLabel('Distance').selectOption('25');
      await expect(
        page.getByRole('article', { name: calItem }).getByText(/^([89]|1[01])\.\d mi$/),
      ).toBeVisible();

      // The item's detail: the owner's approximate area in words and on a map (no tile server here: the
      // neighbourhood outlines and names the server ships), never a point.
      await page.getByRole('button', { name: benItem, exact: true }).click();
      const detail = page.getByRole('dialog', { name: benItem });
      const area = detail.getByText(
        /^Approximate area: near .+, Oregon, United States, within about 1\.5 miles\. The exact address is never shown\.$/,
      );
      await expect(area).toBeVisible();
      const areaMap = detail.getByRole('img', { name: /^Map of the approximate area/ });
      await expect(areaMap).toBeVisible();
      await expect(areaMap.locator('svg path').nth(1)).toBeAttached(); // the circle and an outline at least
      await expectAccessible(page);

      // Ben's page: the same area. His name as others see it: "Ben H.", or a letter more when an
      // earlier Ben H. lives near (ADR 058: the desktop and phone runs share one database).
      const benId = ((await (await ben.get('/api/auth/user')).json()) as { id: string }).id;
      const benName = ((await (await ann.get(`/api/members/${benId}`)).json()) as { displayName: string })
        .displayName;
      expect(benName).toMatch(/^Ben H/);
      await detail.getByRole('link', { name: benName }).click();
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1, name: benName })).toBeVisible();
      await expect(
        main.getByText(/^Approximate area: near .+, Oregon, United States, within about 1\.5 miles\./),
      ).toBeVisible();
      await expectAccessible(page);
    } finally {
      await ann.dispose();
      await ben.dispose();
      await cal.dispose();
    }
  });
});
