import type { ItemDetail } from '#common/schemas/feed.ts';
import {
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  listItem,
  memberApi,
  milesNorth,
  signInThroughApi,
  test,
  uniqueEmail,
} from './fixtures';

/**
 * Issue 31, "a map" (ADR 086): Everything as a map with no tile server set (the default here). The
 * neighbours' items sit at their approximate public points (the area maps' centres, never homes) over
 * the neighbourhood outlines and town names the server ships; the list beside it holds exactly the
 * map's items, and choosing in one marks the other. On the phone the list is under the map.
 */
test.describe('the feed as a map', () => {
  test("neighbours' items at their public points, the list beside them, no tile server", {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL }) => {
    test.setTimeout(120_000);
    const password = 'maple lantern 42';
    const run = Date.now().toString(36);
    // South Minneapolis (Zillow has its neighbourhoods), a little apart from run to run.
    const home = { latitude: 44.948 + Math.random() * 0.01, longitude: -93.289 + Math.random() * 0.01 };
    const milesEast = (miles: number) => miles / (69.17 * Math.cos((home.latitude * Math.PI) / 180));
    const annEmail = uniqueEmail('map-ann');
    const ann = await memberApi(
      baseURL ?? '',
      { firstName: 'Ann', lastName: 'Map', email: annEmail, password },
      { location: 'Minneapolis, Minnesota, United States', ...home },
    );
    const ben = await memberApi(
      baseURL ?? '',
      { firstName: 'Ben', lastName: 'North', email: uniqueEmail('map-ben'), password },
      { location: 'Minneapolis', latitude: home.latitude + milesNorth(1), longitude: home.longitude },
    );
    const cal = await memberApi(
      baseURL ?? '',
      { firstName: 'Cal', lastName: 'East', email: uniqueEmail('map-cal'), password },
      { location: 'Minneapolis', latitude: home.latitude, longitude: home.longitude + milesEast(2.5) },
    );
    // Thirty miles north: outside the 5-mile map.
    const dan = await memberApi(
      baseURL ?? '',
      { firstName: 'Dan', lastName: 'Far', email: uniqueEmail('map-dan'), password },
      { location: 'Far away', latitude: home.latitude + milesNorth(30), longitude: home.longitude },
    );
    try {
      const benItem = `Map ladder ${run}`;
      const calItem = `Map kettle ${run}`;
      const benId = await listItem(ben, benItem, 'tools');
      const calId = await listItem(cal, calItem, 'household');
      const danId = await listItem(dan, `Map sofa ${run}`, 'household');
      /** Where an item's detail puts its owner's area: the public point rounded (ADR 032), from the API. */
      const areaOf = async (id: number) => {
        const response = await ann.get(`/api/items/${id}`);
        expect(response.status(), await response.text()).toBe(200);
        const area = ((await response.json()) as ItemDetail).approximateArea;
        if (!area) throw new Error('the item has no area');
        return area;
      };
      const benArea = await areaOf(benId);
      const calArea = await areaOf(calId);

      await signInThroughApi(page, { email: annEmail, password });
      await page.goto('/');
      await page.getByRole('tab', { name: 'Everything' }).click();
      await page.getByLabel('Distance').selectOption('5');
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Map' }).click();
      await expect(page.getByRole('button', { name: 'Map', pressed: true })).toBeVisible();

      const map = page.getByRole('region', { name: 'Map of the items near you' });
      const list = page.getByRole('list', { name: 'Items on the map' });
      await expect(map).toBeVisible();
      await expect(list.getByRole('button', { name: new RegExp(`^${benItem}`) })).toBeVisible();
      await expect(list.getByRole('button', { name: new RegExp(`^${calItem}`) })).toBeVisible();
      await expect(list.getByText(`Map sofa ${run}`)).toHaveCount(0);

      // Every item in the list is on the map, and nothing else is.
      const markers = map.getByTestId('feed-map-marker');
      await expect(markers.first()).toBeVisible();
      const marked = async () =>
        (await markers.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-item-ids') ?? '')))
          .flatMap((ids) => ids.split(','))
          .map(Number)
          .sort((a, b) => a - b);
      const listed = async () =>
        (
          await list
            .getByRole('listitem')
            .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-item-id')))
        )
          .map(Number)
          .sort((a, b) => a - b);
      await expect.poll(marked).toEqual(await listed());
      expect(await listed()).toEqual(expect.arrayContaining([benId, calId]));
      expect(await listed()).not.toContain(danId);

      // Ben's and Cal's items at their public points, rounded as the area maps' centres: never a home.
      /** The ids of the marker that holds the item, and where it is; null when none does. */
      const markerHolding = (id: number) =>
        map.evaluate((element, itemId) => {
          const node = Array.from(element.querySelectorAll('[data-item-ids]')).find((n) =>
            (n.getAttribute('data-item-ids') ?? '').split(',').includes(String(itemId)),
          );
          return node
            ? {
                ids: (node.getAttribute('data-item-ids') ?? '').split(',').map(Number),
                latitude: Number(node.getAttribute('data-latitude')),
                longitude: Number(node.getAttribute('data-longitude')),
              }
            : null;
        }, id);
      for (const [id, area] of [
        [benId, benArea],
        [calId, calArea],
      ] as const) {
        const point = await markerHolding(id);
        expect(point).not.toBeNull();
        // A marker of one spot is at it; one that merges several spots is within a few miles of it.
        if (point?.ids.length === 1)
          expect(point).toMatchObject({ latitude: area.latitude, longitude: area.longitude });
        expect(point?.latitude).toBeCloseTo(area.latitude, 1);
        expect(point?.longitude).toBeCloseTo(area.longitude, 1);
      }
      // The base without tiles: neighbourhood outlines and the town's name, from the server's data.
      await expect(map.locator('svg path').nth(2)).toBeAttached();
      await expect(map.getByText('Minneapolis', { exact: true }).first()).toBeAttached();
      await expect(map.getByText(/Zillow \(CC BY-SA 3\.0\)/)).toBeVisible();

      // Choosing in the list marks the item on the map.
      await list.getByRole('button', { name: new RegExp(`^${benItem}`) }).click();
      await expect(
        list.getByRole('button', { name: new RegExp(`^${benItem}`), pressed: true }),
      ).toBeVisible();
      await expect
        .poll(() => map.locator('[data-selected="true"]').getAttribute('data-item-ids'))
        .toContain(String(benId));
      // Choosing on the map marks the item in the list (a merged marker first zooms in to its parts).
      for (let step = 0; step < 6; step++) {
        const spot = await markerHolding(calId);
        expect(spot).not.toBeNull();
        await map.locator(`[data-item-ids="${spot?.ids.join(',')}"]`).click();
        const first = spot?.ids[0];
        const row = list.locator(`li[data-item-id="${first}"]`).getByRole('button', { pressed: true });
        if (spot?.ids.length === 1 || (await row.count()) === 1) {
          await expect(row).toBeVisible();
          break;
        }
        await expect
          .poll(async () => (await markerHolding(calId))?.ids.length)
          .toBeLessThan(spot?.ids.length ?? 0);
      }
      await expect(map.locator('[data-selected="true"]')).toHaveCount(1);
      await expectAccessible(page);
      const width = page.viewportSize()?.width ?? 1280;
      await expectNoSidewaysScroll(page, width);

      // On the phone the list is under the map; on a desktop beside it.
      const mapBox = await map.boundingBox();
      const listBox = await list.boundingBox();
      if (width < 768) expect(listBox?.y ?? 0).toBeGreaterThan((mapBox?.y ?? 0) + (mapBox?.height ?? 0) - 1);
      else expect(listBox?.x ?? 0).toBeGreaterThan((mapBox?.x ?? 0) + (mapBox?.width ?? 0) - 1);

      // The list's Details opens the item, whose area map now draws the same base (no tile server).
      await list.getByRole('button', { name: `Details of ${calItem}` }).click();
      const detail = page.getByRole('dialog', { name: calItem });
      const areaMap = detail.getByRole('img', { name: /^Map of the approximate area/ });
      await expect(areaMap).toBeVisible();
      await expect(areaMap.locator('svg path').nth(1)).toBeAttached();
      await expectAccessible(page);
    } finally {
      await ann.dispose();
      await ben.dispose();
      await cal.dispose();
      await dan.dispose();
    }
  });
});
