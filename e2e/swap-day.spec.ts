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
  toasts,
  uniqueEmail,
} from './fixtures';
import { shownName } from './support/shown-name';

/**
 * Issue 16's "done when": a swap day with five members and ranked wants runs end to end in the
 * browser and prints its pick-up sheet. Olga organizes it; Ben, Cal, Dee and Eve join, offer and
 * rank in their own browsers; Olga closes want lists; the engine trades the most items, then lets
 * the most members trade: one loop of all five (a loop of three among Olga, Ben and Cal would trade
 * as many items with their first choices, but leave Dee and Eve out). Each sees what they give and
 * get, live; Olga prints the pick-up sheet.
 */

const password = 'juniper lantern 42';

interface Neighbor {
  first: string;
  last: string;
  email: string;
  items: string[];
  /** How the others see them ("Ben B."), read once they exist. */
  name?: string;
}

/** Console errors and uncaught exceptions of the pages the fixture does not watch (the neighbors'). */
const neighborErrors: string[] = [];

/** A member's browser: its own context, past the gate, signed in through the API. */
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

/** Sign in through the API from the page's own context (sign-in itself is tested elsewhere). */
async function signInQuietly(page: Page, neighbor: Neighbor): Promise<void> {
  const response = await page.request.post('/api/auth/login', { data: { email: neighbor.email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Join the swap day on its page and offer these items. */
async function joinAndOffer(page: Page, titles: string[]): Promise<void> {
  await page.getByRole('button', { name: 'Join Swap Day' }).click();
  const choose = page.getByRole('group', { name: 'Choose items to offer' });
  for (const title of titles) await choose.getByRole('checkbox', { name: title }).check();
  await page.getByRole('button', { name: 'Offer Selected Items' }).click();
  for (const title of titles) {
    await expect(page.getByRole('region', { name: `For your ${title}` })).toBeVisible();
  }
}

/** Rank what the member would accept for one offer, in order, and save. */
async function rank(page: Page, offer: string, wanted: string[]): Promise<void> {
  const editor = page.getByRole('region', { name: `For your ${offer}` });
  for (const option of wanted) {
    await editor.getByLabel('Add an item you would accept').selectOption({ label: option });
    await editor.getByRole('button', { name: 'Add', exact: true }).click();
  }
  await editor.getByRole('button', { name: 'Save ranking' }).click();
  await expect(editor.getByText('Unsaved changes')).toBeHidden();
  await expect(editor.getByRole('button', { name: 'Save ranking' })).toBeDisabled();
}

/** "You give …" and "You get …" on a member's page, each a link to its hand-over. */
async function expectHandOvers(page: Page, give: string, get: string): Promise<void> {
  await expect(page.getByRole('link', { name: give })).toHaveAttribute('href', /^\/barters\/\d+$/);
  await expect(page.getByRole('link', { name: get })).toHaveAttribute('href', /^\/barters\/\d+$/);
}

test.describe('a swap day', () => {
  test('five neighbors join, offer and rank; the organizer matches them and prints the pick-up sheet', async ({
    gatedPage: olgaPage,
    baseURL,
    browser,
  }) => {
    // Five browsers on one embedded database: about 75 s alone, more beside the other project.
    test.setTimeout(240_000);
    // A spot of our own: nearby lists show only this test's swap day.
    const origin = ownSpot();
    const neighbors: Record<'olga' | 'ben' | 'cal' | 'dee' | 'eve', Neighbor> = {
      olga: {
        first: 'Olga',
        last: 'Ortiz',
        email: uniqueEmail('olga'),
        items: ['Camping stove', 'Board game'],
      },
      ben: {
        first: 'Ben',
        last: 'Brook',
        email: uniqueEmail('ben'),
        items: ['Cordless drill', 'Tennis racket'],
      },
      cal: { first: 'Cal', last: 'Chen', email: uniqueEmail('cal'), items: ['Bread maker'] },
      dee: { first: 'Dee', last: 'Diaz', email: uniqueEmail('dee'), items: ['Acoustic guitar'] },
      eve: { first: 'Eve', last: 'Evans', email: uniqueEmail('eve'), items: ['Rice cooker'] },
    };
    let north = 0;
    for (const neighbor of Object.values(neighbors)) {
      const api = await memberApi(
        baseURL ?? '',
        { firstName: neighbor.first, lastName: neighbor.last, email: neighbor.email, password },
        {
          location: 'Juniper Lane',
          latitude: origin.latitude + milesNorth(0.3 * north++),
          longitude: origin.longitude,
        },
      );
      try {
        // "Ben B.", or a letter more when an earlier Ben B. lives near (ADR 058).
        neighbor.name = await shownName(api, api);
        for (const title of neighbor.items) {
          const response = await api.post('/api/items', {
            data: { title, description: 'Clean and working.', category: 'household' },
          });
          expect(response.status(), await response.text()).toBe(201);
        }
      } finally {
        await api.dispose();
      }
    }

    /** How the others see `who` (ADR 058). */
    const name = (who: keyof typeof neighbors) => neighbors[who].name ?? '';

    // --- Olga organizes the swap day from the Swap days screen. ---
    const olga = olgaPage;
    await signInQuietly(olga, neighbors.olga);
    await olga.goto('/');
    await olga.getByRole('banner').getByRole('link', { name: 'Swap days' }).click();
    await expect(olga.getByRole('heading', { name: 'Swap days', level: 1 })).toBeVisible();
    await expectAccessible(olga);
    await olga.getByRole('button', { name: 'Organize a Swap Day' }).click();
    const form = olga.getByRole('dialog', { name: 'Organize a Swap Day' });
    // The form checks what the server checks, with the same words.
    await form.getByLabel('Name').fill('   ');
    await form.getByRole('button', { name: 'Organize Swap Day' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await form.getByLabel('Name').fill('Juniper Lane swap day');
    await form.getByLabel('Place').fill('Juniper Lane community garden');
    // Starts and want lists close keep their suggestions: in a week, closing the evening before.
    await expect(form.getByLabel('Starts')).not.toHaveValue('');
    await form.getByRole('button', { name: 'Organize Swap Day' }).click();
    await expect(form).toBeHidden();
    await expect(olga.getByRole('heading', { name: 'Juniper Lane swap day', level: 1 })).toBeVisible();
    const swapDayUrl = new URL(olga.url()).pathname;
    expect(swapDayUrl).toMatch(/^\/swap-days\/\d+$/);
    const choose = olga.getByRole('group', { name: 'Choose items to offer' });
    await choose.getByRole('checkbox', { name: 'Camping stove' }).check();
    await choose.getByRole('checkbox', { name: 'Board game' }).check();
    await olga.getByRole('button', { name: 'Offer Selected Items' }).click();
    await expect(olga.getByRole('region', { name: 'For your Board game' })).toBeVisible();

    const pages: Page[] = [];
    try {
      // --- Ben finds it near him; the others follow Olga's link. Each joins and offers. ---
      const ben = await openAs(browser, neighbors.ben);
      pages.push(ben);
      await ben.goto('/swap-days');
      const near = ben.getByRole('region', { name: 'Near you' });
      await near.getByRole('link', { name: 'Juniper Lane swap day' }).click();
      await expect(ben.getByRole('heading', { name: 'Juniper Lane swap day', level: 1 })).toBeVisible();
      await expect(ben.getByText(`Organized by ${name('olga')}, 1 member.`)).toBeVisible();
      await joinAndOffer(ben, neighbors.ben.items);

      const others: Record<'cal' | 'dee' | 'eve', Page> = {
        cal: await openAs(browser, neighbors.cal),
        dee: await openAs(browser, neighbors.dee),
        eve: await openAs(browser, neighbors.eve),
      };
      pages.push(others.cal, others.dee, others.eve);
      for (const [name, page] of Object.entries(others) as Array<[keyof typeof others, Page]>) {
        await page.goto(swapDayUrl);
        await joinAndOffer(page, neighbors[name].items);
      }

      // --- Everyone ranks what they would accept, most wanted first. Olga's page heard of every
      // offer live; she orders with Move up instead of adding in order. ---
      const olgaStove = olga.getByRole('region', { name: 'For your Camping stove' });
      await olgaStove
        .getByLabel('Add an item you would accept')
        .selectOption({ label: `Cordless drill, from ${name('ben')}` });
      await olgaStove.getByRole('button', { name: 'Add', exact: true }).click();
      await olgaStove
        .getByLabel('Add an item you would accept')
        .selectOption({ label: `Tennis racket, from ${name('ben')}` });
      await olgaStove.getByRole('button', { name: 'Add', exact: true }).click();
      await olgaStove.getByRole('button', { name: 'Move Tennis racket up' }).click();
      await expect(
        olgaStove
          .getByRole('list', { name: 'What you would accept for your Camping stove' })
          .getByRole('listitem'),
      ).toHaveText([/Tennis racket/, /Cordless drill/]);
      await olgaStove.getByRole('button', { name: 'Save ranking' }).click();
      await expect(olgaStove.getByText('Unsaved changes')).toBeHidden();
      await rank(olga, 'Board game', [`Cordless drill, from ${name('ben')}`]);
      await expectAccessible(olga);

      await rank(ben, 'Cordless drill', [`Bread maker, from ${name('cal')}`]);
      await rank(ben, 'Tennis racket', [`Camping stove, from ${name('olga')}`]);
      await rank(others.cal, 'Bread maker', [
        `Board game, from ${name('olga')}`,
        `Acoustic guitar, from ${name('dee')}`,
      ]);
      await rank(others.dee, 'Acoustic guitar', [`Rice cooker, from ${name('eve')}`]);
      await rank(others.eve, 'Rice cooker', [`Camping stove, from ${name('olga')}`]);
      await expectAccessible(others.eve);

      // --- Olga closes want lists and matches everyone. ---
      await olga.getByRole('button', { name: 'Close want lists and match now' }).click();
      const confirm = olga.getByRole('dialog', { name: 'Close want lists and match now?' });
      await confirm.getByRole('button', { name: 'Close and Match' }).click();
      await expect(confirm).toBeHidden();
      // Closing answers at once (202): the match runs as a job, and its stages and result reach
      // every open page through the live stream, with no reload (ADR 050).
      await expect(olga.getByText('Matching Started', { exact: true })).toBeVisible();
      await expect(olga.getByText('Matched: 5 items change hands among 5 neighbors.')).toBeVisible();
      await expectHandOvers(
        olga,
        `You give Camping stove to ${name('eve')}`,
        `You get Cordless drill from ${name('ben')}`,
      );
      await expect(olga.getByRole('button', { name: 'Save ranking' })).toHaveCount(0);
      await expectAccessible(olga);

      // --- Every member's page shows their own hand-overs, without a reload. ---
      await expectHandOvers(
        ben,
        `You give Cordless drill to ${name('olga')}`,
        `You get Bread maker from ${name('cal')}`,
      );
      await expectHandOvers(
        others.cal,
        `You give Bread maker to ${name('ben')}`,
        `You get Acoustic guitar from ${name('dee')}`,
      );
      await expectHandOvers(
        others.dee,
        `You give Acoustic guitar to ${name('cal')}`,
        `You get Rice cooker from ${name('eve')}`,
      );
      await expectHandOvers(
        others.eve,
        `You give Rice cooker to ${name('dee')}`,
        `You get Camping stove from ${name('olga')}`,
      );

      // --- A hand-over is an accepted barter. ---
      await others.eve.getByRole('link', { name: `You get Camping stove from ${name('olga')}` }).click();
      await expect(others.eve.getByRole('heading', { name: `Barter with ${name('olga')}` })).toBeVisible();
      await expect(others.eve.getByText('Accepted', { exact: true })).toBeVisible();

      // --- Cal's own pick-up lines: what he gives and what he gets. ---
      await others.cal.getByRole('link', { name: 'Your pick-up sheet' }).click();
      await expect(
        others.cal.getByRole('heading', { name: 'Juniper Lane swap day', level: 1 }),
      ).toBeVisible();
      await expect(others.cal.getByRole('table')).toHaveCount(2);

      // --- Olga's pick-up sheet: one table per giver, a box to tick per hand-over. ---
      await olga.getByRole('link', { name: 'Pick-up sheet' }).click();
      await expect(olga.getByRole('heading', { name: 'Juniper Lane swap day', level: 1 })).toBeVisible();
      await expect(olga.getByText('Juniper Lane community garden')).toBeVisible();
      const tables = olga.getByRole('table');
      await expect(tables).toHaveCount(5);
      const eveGives = olga.getByRole('region', { name: `${name('eve')} gives` });
      await expect(eveGives.getByRole('row', { name: /Rice cooker Dee D\. 1/ })).toBeVisible();
      const tick = olga.getByRole('checkbox', {
        name: `Handed over: Camping stove from ${name('olga')} to ${name('eve')}`,
      });
      await tick.check();
      await expectAccessible(olga);

      // The Print button asks the browser to print.
      await olga.evaluate(() => {
        const counted = window as unknown as { printed: number };
        counted.printed = 0;
        window.print = () => {
          counted.printed++;
        };
      });
      await olga.getByRole('button', { name: 'Print' }).click();
      expect(await olga.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

      // On paper: the sheet alone, no header, navigation or buttons.
      await olga.emulateMedia({ media: 'print' });
      await expect(olga.getByRole('banner')).toBeHidden();
      await expect(olga.getByRole('navigation', { name: 'Main' })).toBeHidden();
      await expect(olga.getByRole('button', { name: 'Print' })).toBeHidden();
      await expect(olga.getByRole('link', { name: 'Back to the swap day' })).toBeHidden();
      await expect(olga.getByRole('heading', { name: 'Juniper Lane swap day', level: 1 })).toBeVisible();
      await expect(tables).toHaveCount(5);
      for (const giver of [name('ben'), name('cal'), name('dee'), name('eve'), name('olga')]) {
        await expect(olga.getByRole('heading', { name: `${giver} gives` })).toBeVisible();
      }
      await expect(olga.getByRole('row', { name: `Camping stove ${name('eve')} 1` })).toBeVisible();
      await expect(tick).toBeChecked();
      await olga.emulateMedia({ media: 'screen' });
      await expect(olga.getByRole('button', { name: 'Print' })).toBeVisible();
      await expect(toasts(olga).getByText('Error')).toHaveCount(0);
      expect(neighborErrors, 'console errors in the neighbors’ browsers').toEqual([]);
    } finally {
      for (const page of pages) await page.context().close();
    }
  });
});
