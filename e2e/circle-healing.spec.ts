import {
  expect,
  expectAccessible,
  expectFitsPhone,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  test,
  uniqueEmail,
} from './fixtures';
import { shownName } from './support/shown-name';

/**
 * Issue 30's healing journey (ADR 081): Ann, Ben and Cat are proposed a circle of three by the real
 * finder running in the background; Dan, who wants Ben's tent and has a guitar Ann wants, joins
 * later, while they are busy. Ann (in her browser, by keyboard) and Ben accept; Cat declines. Ann's
 * page hears it live: the bell brings the circle that replaces it, with Dan in Cat's place, and Ann
 * opens it from the bell. Nothing is reloaded, and nothing waits on a timer.
 */

const password = 'willow lantern 42';

interface Neighbor {
  first: string;
  email: string;
  offers: { title: string; category: string };
  wants: { title: string; category: string };
}

const DRILL = { title: 'Cordless drill', category: 'tools' };
const TENT = { title: 'Camping tent', category: 'rvs+camp' };
const GUITAR = { title: 'Acoustic guitar', category: 'music instr' };

async function join(
  baseURL: string,
  neighbor: Neighbor,
  origin: { latitude: number; longitude: number },
  north: number,
) {
  const api = await memberApi(
    baseURL,
    { firstName: neighbor.first, lastName: 'Healer', email: neighbor.email, password },
    { location: 'Willow Street', latitude: origin.latitude + milesNorth(north), longitude: origin.longitude },
  );
  const item = await api.post('/api/items', {
    data: { ...neighbor.offers, description: 'Clean and working.' },
  });
  expect(item.status(), await item.text()).toBe(201);
  const want = await api.post('/api/wants', { data: neighbor.wants });
  expect(want.status(), await want.text()).toBe(201);
  // Opening Barter Match builds the member's match graph, which the finder reads.
  const feed = await api.get('/api/feed/barter-match');
  expect(feed.status(), await feed.text()).toBe(200);
  return api;
}

/** Tab from where the focus is until `target` has it (at most `limit` presses). */
async function tabTo(page: Page, name: string, limit = 40): Promise<void> {
  const target = page.getByRole('button', { name, exact: true });
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('a circle that heals', () => {
  test('one of three declines, and the two who stay are offered the circle with a fourth neighbor', async ({
    gatedPage: page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const origin = ownSpot();
    const ann: Neighbor = { first: 'Ann', email: uniqueEmail('ann'), offers: DRILL, wants: GUITAR };
    const ben: Neighbor = { first: 'Ben', email: uniqueEmail('ben'), offers: TENT, wants: DRILL };
    const cat: Neighbor = { first: 'Cat', email: uniqueEmail('cat'), offers: GUITAR, wants: TENT };
    const dan: Neighbor = { first: 'Dan', email: uniqueEmail('dan'), offers: GUITAR, wants: TENT };
    const annApi = await join(baseURL ?? '', ann, origin, 0);
    const benApi = await join(baseURL ?? '', ben, origin, 0.5);
    const catApi = await join(baseURL ?? '', cat, origin, 1);
    let danApi: Awaited<ReturnType<typeof join>> | null = null;
    try {
      // The finder proposes Ann, Ben and Cat their circle.
      const proposed = async () =>
        ((await (await annApi.get('/api/circles?box=proposed')).json()) as Array<{ id: number }>)[0]?.id ??
        null;
      await expect.poll(proposed, { timeout: 30_000 }).not.toBeNull();
      const oldId = (await proposed()) as number;
      // Dan joins while they are busy: no circle for him yet.
      danApi = await join(baseURL ?? '', dan, origin, 1.5);
      const danName = await shownName(annApi, danApi);

      // Ann, signed in, answers on the circle's page by keyboard.
      const login = await page.request.post('/api/auth/login', { data: { email: ann.email, password } });
      expect(login.status(), await login.text()).toBe(200);
      await page.goto(`/circles/${oldId}`);
      await expect(page.getByRole('heading', { name: 'Trade circle', level: 1 })).toBeVisible();
      await tabTo(page, 'Accept');
      await page.keyboard.press('Enter');
      await expect(page.getByText('1 of 3 accepted, you among them.')).toBeVisible();
      const accepted = await benApi.post(`/api/circles/${oldId}/accept`);
      expect(accepted.status(), await accepted.text()).toBe(200);

      // Cat declines: Ann's page and bell hear it live, and the bell brings the replacement.
      const header = page.getByRole('banner');
      const declined = await catApi.post(`/api/circles/${oldId}/decline`);
      expect(declined.status(), await declined.text()).toBe(200);
      await expect(page.getByText(/declined this trade circle\. It dissolved for everyone\./)).toBeVisible();
      const bell = header.getByRole('button', { name: /^Notifications, \d+ unread$/ });
      await expect(bell).toBeVisible();
      await bell.click();
      const menu = page.getByRole('menu');
      const entry = menu.getByRole('menuitem', {
        name: /^Unread: You are in a new trade circle: see who gives what/,
      });
      await expect(entry).toHaveCount(2);
      await expectAccessible(page);
      // The newest entry is the replacement (the first, newest first).
      await entry.first().click();
      await expect(page).not.toHaveURL(new RegExp(`/circles/${oldId}$`));
      await expect(page).toHaveURL(/\/circles\/\d+$/);

      // The new circle says what it replaces, and Dan is in Cat's place.
      const note = page.getByText(/This circle replaces an earlier circle that a member left/);
      await expect(note).toBeVisible();
      await expect(page.getByRole('link', { name: 'an earlier circle' })).toHaveAttribute(
        'href',
        `/circles/${oldId}`,
      );
      await expect(page.getByRole('list', { name: 'The circle, in order' })).toContainText(danName);
      await expect(page.getByText(`you get Acoustic guitar from ${danName}`)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Accept' })).toBeVisible();
      await expectAccessible(page);
      await expectFitsPhone(page);

      // Dan sees it too, and Cat is not in it.
      const danCircles = (await (await danApi.get('/api/circles?box=proposed')).json()) as Array<{
        replacesId: number | null;
      }>;
      expect(danCircles.map((circle) => circle.replacesId)).toEqual([oldId]);
      expect(await (await catApi.get('/api/circles?box=proposed')).json()).toEqual([]);
    } finally {
      for (const api of [annApi, benApi, catApi, danApi]) await api?.dispose();
    }
  });
});
