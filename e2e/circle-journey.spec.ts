import type { Browser } from '@playwright/test';
import {
  expect,
  expectAccessible,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  passGate,
  test,
  uniqueEmail,
} from './fixtures';
import { shownName } from './support/shown-name';

/**
 * Issue 16's "done when" for trade circles, as three new neighbors would live it in three browsers:
 * Ann wants Ben's tent, Ben wants Cat's guitar, Cat wants Ann's drill, and no two of them want each
 * other's. Each opens Barter Match (which builds their match graph); the real circle finder, running
 * in the background, proposes the circle to all three. Ann sees it on her Barter Match card, each
 * accepts (on the circle page, on the Barters screen), a message from one reaches the other two, each
 * confirms their two hand-overs on the barter pages, and each Trade History shows what they gave and
 * got. Nothing is reloaded while the others act.
 */

const password = 'willow lantern 42';

interface Neighbor {
  first: string;
  last: string;
  /** "Ann A.": how the others see them. */
  name: string;
  email: string;
  offers: { title: string; category: string };
  wants: { title: string; category: string };
}

/** Console errors and uncaught exceptions of the pages the fixture does not watch (Ben's, Cat's). */
const neighborErrors: string[] = [];

/** Sign in through the API from the page's own context (sign-in itself is tested elsewhere). */
async function signInQuietly(page: Page, neighbor: Neighbor): Promise<void> {
  const response = await page.request.post('/api/auth/login', { data: { email: neighbor.email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

/** A member's browser: its own context, past the gate, signed in. */
async function openAs(browser: Browser, neighbor: Neighbor): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') neighborErrors.push(`${neighbor.first}: ${message.text()}`);
  });
  page.on('pageerror', (error) => neighborErrors.push(`${neighbor.first}: uncaught ${error.message}`));
  await passGate(page);
  await signInQuietly(page, neighbor);
  return page;
}

/** Opens Barter Match (the home page's first feed) and sees the item the member wants there. */
async function openBarterMatch(page: Page, wanted: string): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('tab', { name: 'Barter Match' })).toHaveAttribute('aria-selected', 'true');
  // Exactly the wanted title: a neighbour of another journey may list a "Cordless drill 18V" in reach.
  await expect(page.getByRole('article', { name: wanted, exact: true })).toBeVisible();
}

/** The status beside the circle page's title ('Accepted', 'Completed'). */
const circleStatus = (page: Page, status: string) =>
  page.getByRole('article', { name: 'Trade circle' }).locator('header').getByText(status, { exact: true });

/** The circle page's message box: write and send with Enter. */
async function say(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message', exact: true });
  await box.fill(text);
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

/** A message in the conversation on show, with its sender's name. */
async function expectMessage(page: Page, from: string, text: string): Promise<void> {
  const message = page
    .getByRole('list', { name: 'Messages' })
    .getByRole('listitem')
    .filter({ hasText: text });
  await expect(message).toBeVisible();
  await expect(message.getByText(from, { exact: true })).toBeVisible();
}

/** From the circle page: open one hand-over, check it reads one way, confirm it, come back. */
async function confirmHandOver(page: Page, link: string, circleUrl: string): Promise<void> {
  await page.getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { name: link })).toBeVisible();
  const banner = page.getByRole('region', { name: 'Trade circle' });
  await expect(banner).toContainText('Part of a trade circle.');
  await page.getByRole('button', { name: 'Confirm completed' }).click();
  await expect(page.getByRole('button', { name: 'Confirm completed' })).toBeHidden();
  await banner.getByRole('link', { name: 'See the whole circle' }).click();
  await expect(page).toHaveURL(circleUrl);
}

test.describe('a trade circle', () => {
  test('three neighbors whose wants make a loop are proposed a circle, accept, talk, hand over and see it in their histories', async ({
    gatedPage: annPage,
    baseURL,
    browser,
  }) => {
    // Three browsers on one embedded database, and the finder's background jobs.
    test.setTimeout(240_000);
    // A spot of our own, so the feeds and the finder hold only this test's neighbors.
    const origin = ownSpot();
    const ann: Neighbor = {
      first: 'Ann',
      last: 'Avery',
      name: 'Ann A.',
      email: uniqueEmail('ann'),
      offers: { title: 'Cordless drill', category: 'tools' },
      wants: { title: 'Camping tent', category: 'rvs+camp' },
    };
    const ben: Neighbor = {
      first: 'Ben',
      last: 'Brook',
      name: 'Ben B.',
      email: uniqueEmail('ben'),
      offers: { title: 'Camping tent', category: 'rvs+camp' },
      wants: { title: 'Acoustic guitar', category: 'music instr' },
    };
    const cat: Neighbor = {
      first: 'Cat',
      last: 'Carter',
      name: 'Cat C.',
      email: uniqueEmail('cat'),
      offers: { title: 'Acoustic guitar', category: 'music instr' },
      wants: { title: 'Cordless drill', category: 'tools' },
    };
    for (const [index, neighbor] of [ann, ben, cat].entries()) {
      const api = await memberApi(
        baseURL ?? '',
        { firstName: neighbor.first, lastName: neighbor.last, email: neighbor.email, password },
        {
          location: 'Willow Street',
          latitude: origin.latitude + milesNorth(0.5 * index),
          longitude: origin.longitude,
        },
      );
      try {
        // "Ann A.", or a letter more when an earlier Ann A. lives near (ADR 058).
        neighbor.name = await shownName(api, api);
        const item = await api.post('/api/items', {
          data: { ...neighbor.offers, description: 'Clean and working.' },
        });
        expect(item.status(), await item.text()).toBe(201);
        const want = await api.post('/api/wants', { data: neighbor.wants });
        expect(want.status(), await want.text()).toBe(201);
      } finally {
        await api.dispose();
      }
    }

    const annP = annPage;
    await signInQuietly(annP, ann);
    const benP = await openAs(browser, ben);
    const catP = await openAs(browser, cat);
    try {
      // --- Each opens Barter Match once: that builds their match graph, which the finder reads. ---
      await openBarterMatch(annP, 'Camping tent');
      await openBarterMatch(benP, 'Acoustic guitar');
      await openBarterMatch(catP, 'Cordless drill');

      // --- The finder proposes the circle; Ann's Barter Match marks the tent, without a reload. ---
      const tent = annP.getByRole('article', { name: 'Camping tent', exact: true });
      await expect(tent.getByText('In a trade circle')).toBeVisible({ timeout: 30_000 });
      await expect(
        tent.getByText(
          `You give Cordless drill to ${cat.name}, ${cat.name} gives Acoustic guitar to ${ben.name}, ${ben.name} gives Camping tent to you`,
        ),
      ).toBeVisible();
      await tent.getByRole('link', { name: 'See the trade circle for Camping tent' }).click();

      // --- Ann's circle page: the loop in order, who accepted, the time left. ---
      await expect(annP.getByRole('heading', { name: 'Trade circle', level: 1 })).toBeVisible();
      const circleUrl = new URL(annP.url()).pathname;
      expect(circleUrl).toMatch(/^\/circles\/\d+$/);
      await expect(circleStatus(annP, 'Waiting for everyone')).toBeVisible();
      await expect(
        annP.getByText(`You give your Cordless drill to ${cat.name}; you get Camping tent from ${ben.name}`),
      ).toBeVisible();
      await expect(
        annP.getByRole('list', { name: 'The circle, in order' }).getByRole('listitem'),
      ).toContainText([
        `You give Cordless drill to ${cat.name}Not accepted yet`,
        `${cat.name} gives Acoustic guitar to ${ben.name}Not accepted yet`,
        `${ben.name} gives Camping tent to youNot accepted yet`,
      ]);
      await expect(annP.getByText(/^2 days, \d+ hours? left$/)).toBeVisible();
      await expectAccessible(annP);

      // --- Ben sees it on his Barters screen. ---
      await benP.goto('/barters');
      const benCard = benP.getByRole('article', { name: `Trade circle with ${ann.name} and ${cat.name}` });
      await expect(benCard).toBeVisible({ timeout: 30_000 });
      await expect(
        benCard.getByText(
          `You give your Camping tent to ${ann.name}; you get Acoustic guitar from ${cat.name}`,
        ),
      ).toBeVisible();
      await expect(benCard.getByText('0 of 3 accepted')).toBeVisible();
      await expectAccessible(benP);

      // --- Ann accepts on the circle page; Ben's card follows live, and he accepts there. ---
      await annP.getByRole('button', { name: 'Accept' }).click();
      await expect(annP.getByText('1 of 3 accepted, you among them.')).toBeVisible();
      await expect(benCard.getByText('1 of 3 accepted')).toBeVisible();
      await benCard.getByRole('button', { name: 'Accept' }).click();
      await expect(benCard.getByText('2 of 3 accepted')).toBeVisible();
      await expect(benCard.getByRole('button', { name: 'Accept' })).toBeHidden();
      await expect(annP.getByText('2 of 3 accepted, you among them.')).toBeVisible();

      // --- Cat opens the circle from her Barters screen and accepts last: the circle starts. ---
      await catP.goto('/barters');
      const catCard = catP.getByRole('article', { name: `Trade circle with ${ben.name} and ${ann.name}` });
      await catCard.getByRole('link', { name: /^See the whole circle/ }).click();
      await expect(catP).toHaveURL(circleUrl);
      await catP.getByRole('button', { name: 'Accept' }).click();
      await expect(catP.getByRole('link', { name: `You give Acoustic guitar to ${ben.name}` })).toBeVisible();
      await expect(circleStatus(catP, 'Accepted')).toBeVisible();
      await expect(catP.getByRole('link', { name: `You get Cordless drill from ${ann.name}` })).toBeVisible();
      await expectAccessible(catP);

      // Ann's page follows live; Ben's card leaves his screen, and his bell tells him.
      await expect(annP.getByRole('link', { name: `You give Cordless drill to ${cat.name}` })).toBeVisible();
      await expect(circleStatus(annP, 'Accepted')).toBeVisible();
      await expect(benCard).toBeHidden();
      await benP
        .getByRole('banner')
        .getByRole('button', { name: /^Notifications, \d+ unread$/ })
        .click();
      await benP.getByRole('menuitem', { name: /Everyone accepted your trade circle/ }).click();
      await expect(benP).toHaveURL(circleUrl);
      await expect(
        benP.getByRole('link', { name: `You get Acoustic guitar from ${cat.name}` }),
      ).toBeVisible();

      // --- One conversation for the three: a message from one reaches the other two, with names. ---
      await say(annP, 'Saturday at ten, by the library?');
      await expectMessage(benP, ann.name, 'Saturday at ten, by the library?');
      await expectMessage(catP, ann.name, 'Saturday at ten, by the library?');
      await say(catP, 'Works for me');
      await expectMessage(annP, cat.name, 'Works for me');
      await expectMessage(benP, cat.name, 'Works for me');
      await expectMessage(catP, 'You', 'Works for me');

      // --- Each confirms their two hand-overs on the barter pages. ---
      await confirmHandOver(annP, `You give Cordless drill to ${cat.name}`, circleUrl);
      await confirmHandOver(annP, `You get Camping tent from ${ben.name}`, circleUrl);
      await confirmHandOver(benP, `You give Camping tent to ${ann.name}`, circleUrl);
      await confirmHandOver(benP, `You get Acoustic guitar from ${cat.name}`, circleUrl);
      await confirmHandOver(catP, `You give Acoustic guitar to ${ben.name}`, circleUrl);
      await confirmHandOver(catP, `You get Cordless drill from ${ann.name}`, circleUrl);
      // (A member outside the last hand-over hears of the circle's completion on their next visit.)
      for (const page of [annP, benP, catP]) {
        await page.goto(circleUrl);
        await expect(circleStatus(page, 'Completed')).toBeVisible();
        await expect(page.getByText('Completed: every hand-over of the circle happened.')).toBeVisible();
      }

      // --- Each Trade History shows their side: what they gave, to whom; what they got, from whom. ---
      const expectHistory = async (page: Page, gave: string, got: string) => {
        await page.goto('/profile?tab=trades');
        const trades = page.getByRole('list', { name: 'Recent trades' });
        await expect(trades.getByRole('listitem')).toHaveCount(2);
        await expect(trades.getByText(gave)).toBeVisible();
        await expect(trades.getByText(got)).toBeVisible();
      };
      await expectHistory(annP, 'You gave Cordless drill to Cat', 'You got Camping tent from Ben');
      await expectHistory(benP, 'You gave Camping tent to Ann', 'You got Acoustic guitar from Cat');
      await expectHistory(catP, 'You gave Acoustic guitar to Ben', 'You got Cordless drill from Ann');
      await expectAccessible(catP);
    } finally {
      await benP.context().close();
      await catP.context().close();
    }
    expect(neighborErrors, 'console errors in the neighbors’ browsers').toEqual([]);
  });
});
