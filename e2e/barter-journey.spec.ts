import {
  expect,
  expectAccessible,
  markPage,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  passGate,
  signInThroughApi,
  stillSamePage,
  test,
  toasts,
  uniqueEmail,
} from './fixtures';
import { ANN_SHOWN, shownName } from './support/shown-name';

/**
 * Issue 13's "done when", as two new neighbors would live it in two browsers: a proposal, a counter
 * found through the bell, an accept, a live conversation, both confirmations, both ratings, and then
 * the same numbers everywhere (trade history, profile header, feed card, member page) with the
 * traded items gone from the feeds. Nothing on either side is reloaded while the other acts.
 */

const password = 'maple lantern 42';
/** A stat of the Trade History tab ('Total Trades', 'Rating', 'This Month'). */
const tradeStat = (page: Page, label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('dd');

test.describe('the barter loop @desktop-only', () => {
  test('two neighbors propose, counter, accept, talk live, complete and rate; every screen then agrees', async ({
    gatedPage: ann,
    baseURL,
    browser,
  }) => {
    test.setTimeout(180_000);
    // A spot of our own, so the feeds hold only this test's items.
    const origin = ownSpot();
    const annEmail = uniqueEmail('ann');
    const benEmail = uniqueEmail('ben');
    const annApi = await memberApi(
      baseURL ?? '',
      { firstName: 'Ann', lastName: 'Avery', email: annEmail, password },
      { location: 'Testville', ...origin },
    );
    const benApi = await memberApi(
      baseURL ?? '',
      { firstName: 'Ben', lastName: 'Brook', email: benEmail, password },
      { location: 'Testville North', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
    );
    // How each sees the other: "Ann A.", or a letter more when an earlier Ann A. lives near (ADR 058).
    const annName = await shownName(benApi, annApi);
    const benName = await shownName(annApi, benApi);
    const post = async (api: typeof annApi, title: string, category: string) => {
      const response = await api.post('/api/items', {
        data: { title, description: 'In good shape.', category },
      });
      expect(response.status(), await response.text()).toBe(201);
    };
    try {
      await post(benApi, 'Cordless drill', 'tools');
      await post(benApi, 'Aluminum ladder', 'tools');
      await post(annApi, 'Mountain bike', 'bikes');
      await post(annApi, 'Folding chair', 'furniture');
    } finally {
      await annApi.dispose();
      await benApi.dispose();
    }

    const benContext = await browser.newContext();
    try {
      const ben = await benContext.newPage();
      await passGate(ben);
      await signInThroughApi(ben, { email: benEmail, password });
      await ben.goto('/');
      await markPage(ben);
      const benHeader = ben.getByRole('banner');
      await expect(benHeader.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
      // Ben looks at the feed first: later, without a reload, it must not show what was traded.
      await ben.getByRole('tab', { name: 'Everything' }).click();
      await expect(ben.getByRole('article', { name: 'Folding chair' })).toBeVisible();

      // --- Ann proposes her bike for Ben's drill. ---
      await signInThroughApi(ann, { email: annEmail, password });
      await ann.goto('/');
      await markPage(ann);
      await ann.getByRole('tab', { name: 'Everything' }).click();
      await ann
        .getByRole('article', { name: 'Cordless drill' })
        .getByRole('button', { name: 'Propose Barter' })
        .click();
      const proposal = ann.getByRole('dialog', { name: 'Propose a Barter' });
      await proposal
        .getByRole('group', { name: 'You offer' })
        .getByRole('checkbox', { name: 'Mountain bike' })
        .check();
      await proposal.getByLabel('Message (optional)').fill('My bike for your drill?');
      await proposal.getByRole('button', { name: 'Send Proposal' }).click();
      await expect(proposal).toBeHidden();

      // --- Ben's bell rises without a reload; he opens it and counters: the chair instead of the bike. ---
      const benBell = benHeader.getByRole('button', { name: 'Notifications, 1 unread' });
      await expect(benBell).toBeVisible();
      expect(await stillSamePage(ben)).toBe(true);
      await benBell.click();
      await ben
        .getByRole('menuitem', { name: new RegExp(`^Unread: ${ANN_SHOWN} proposed a barter`) })
        .click();
      await expect(ben.getByRole('heading', { name: `Barter with ${annName}` })).toBeVisible();
      await expect(ben.getByText('My bike for your drill?')).toBeVisible();
      await ben.getByRole('button', { name: 'Counter' }).click();
      const counter = ben.getByRole('dialog', { name: 'Counter Offer' });
      const asked = counter.getByRole('group', { name: 'You ask for' });
      await expect(
        counter.getByRole('group', { name: 'You offer' }).getByRole('checkbox', { name: 'Cordless drill' }),
      ).toBeChecked();
      await asked.getByRole('checkbox', { name: 'Mountain bike' }).uncheck();
      await asked.getByRole('checkbox', { name: 'Folding chair' }).check();
      await counter.getByLabel('Message (optional)').fill('I would rather have the chair.');
      await counter.getByRole('button', { name: 'Send Counter Offer' }).click();
      await expect(counter).toBeHidden();
      await expect(ben.getByRole('button', { name: 'Withdraw' })).toBeVisible();
      await markPage(ben);

      // --- Ann hears of the counter through her bell and accepts. ---
      const annBell = ann.getByRole('banner').getByRole('button', { name: 'Notifications, 1 unread' });
      await expect(annBell).toBeVisible();
      expect(await stillSamePage(ann)).toBe(true);
      await annBell.click();
      await ann.getByRole('menuitem', { name: /^Unread: Ben B\. countered your proposal/ }).click();
      await expect(ann.getByRole('heading', { name: `Barter with ${benName}` })).toBeVisible();
      await expect(ann.getByText('I would rather have the chair.')).toBeVisible();
      await markPage(ann);
      await ann.getByRole('button', { name: 'Accept' }).click();
      await expect(ann.getByText('Accepted', { exact: true })).toBeVisible();
      // Ben's page follows by itself.
      await expect(ben.getByText('Accepted', { exact: true })).toBeVisible();
      await expect(ben.getByRole('button', { name: 'Cancel barter' })).toBeVisible();

      // --- Messages appear live on the other side. ---
      const annBox = ann.getByRole('textbox', { name: 'Message', exact: true });
      await annBox.fill('Saturday at ten, by the library?');
      await annBox.press('Enter');
      const benMessages = ben.getByRole('list', { name: 'Messages' });
      await expect(benMessages.getByText('Saturday at ten, by the library?')).toBeVisible();
      await ben.getByRole('textbox', { name: 'Message', exact: true }).fill('See you there!');
      await ben.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(ann.getByRole('list', { name: 'Messages' }).getByText('See you there!')).toBeVisible();
      expect(await stillSamePage(ann)).toBe(true);
      expect(await stillSamePage(ben)).toBe(true);

      // --- Both confirm completion: Ben's page learns of Ann's confirmation live. ---
      await ann.getByRole('button', { name: 'Confirm completed' }).click();
      await expect(ben.getByText(new RegExp(`${ANN_SHOWN} confirmed the exchange`))).toBeVisible();
      await ben.getByRole('button', { name: 'Confirm completed' }).click();
      await expect(ben.getByText('Completed', { exact: true })).toBeVisible();
      await expect(ann.getByText('Completed', { exact: true })).toBeVisible();

      // --- Both rate. ---
      const benRating = ben.getByRole('form', { name: `Rate ${annName}` });
      await benRating.getByRole('radio', { name: '5 stars' }).check();
      await benRating.getByLabel('Comment (optional)').fill('Chair as described, very friendly.');
      await benRating.getByRole('button', { name: 'Rate' }).click();
      await expect(benRating).toBeHidden();
      // The form is gone with the rating, and its confirmation still shows.
      await expect(toasts(ben).getByText('Rating Sent')).toBeVisible();
      const annRating = ann.getByRole('form', { name: `Rate ${benName}` });
      await annRating.getByRole('radio', { name: '4 stars' }).check();
      await annRating.getByLabel('Comment (optional)').fill('Drill works well.');
      await annRating.getByRole('button', { name: 'Rate' }).click();
      await expect(annRating).toBeHidden();
      await expect(ann.getByText('Chair as described, very friendly.')).toBeVisible();
      await expectAccessible(ann);

      // --- Ben goes back to the feed he loaded at the start through the app's own link, no reload:
      // the chair he received is gone from it and Ann's bike carries her new rating. ---
      await ben.getByRole('link', { name: 'Barterhood' }).click();
      await ben.getByRole('tab', { name: 'Everything' }).click();
      await expect(
        ben.getByRole('article', { name: 'Mountain bike' }).getByText('5.0 (1 trade)'),
      ).toBeVisible();
      await expect(ben.getByRole('article', { name: 'Folding chair' })).toHaveCount(0);
      expect(await stillSamePage(ben)).toBe(true);

      // --- Each profile's Trade History shows the trade; stats and header agree. ---
      const expectHistory = async (page: Page, other: string, rating: string, give: string, get: string) => {
        await page.goto('/profile?tab=trades');
        const trades = page.getByRole('list', { name: 'Recent trades' });
        const row = trades.getByRole('listitem').filter({ hasText: `Traded with ${other}` });
        await expect(row).toHaveCount(1);
        await expect(row.getByText(give)).toBeVisible();
        await expect(row.getByText(get)).toBeVisible();
        await expect(tradeStat(page, 'Total Trades')).toHaveText('1');
        await expect(tradeStat(page, 'Rating')).toHaveText(rating);
        await expect(page.getByText(`${rating} (1 trade)`)).toBeVisible();
      };
      await expectHistory(ann, 'Ben', '5.0', 'Folding chair', 'Cordless drill');
      await expectHistory(ben, 'Ann', '4.0', 'Cordless drill', 'Folding chair');

      // --- The feeds: the traded items are gone, the other cards carry the new ratings. ---
      const everything = async (page: Page) => {
        await page.goto('/');
        await page.getByRole('tab', { name: 'Everything' }).click();
      };
      await everything(ann);
      const ladder = ann.getByRole('article', { name: 'Aluminum ladder' });
      await expect(ladder.getByText('4.0 (1 trade)')).toBeVisible();
      await expect(ann.getByRole('article', { name: 'Cordless drill' })).toHaveCount(0);

      // --- Ben's member page, from his name on the card, says the same. ---
      await ladder.getByRole('link', { name: benName }).click();
      await expect(ann.getByRole('heading', { name: benName })).toBeVisible();
      // In his page's header and on his ladder's card.
      await expect(ann.getByText('4.0 (1 trade)')).toHaveCount(2);
      await expect(ann.getByText('Drill works well.')).toBeVisible();
      await expect(ann.getByRole('article', { name: 'Aluminum ladder' })).toBeVisible();
      await expect(ann.getByRole('article', { name: 'Cordless drill' })).toHaveCount(0);
      await expectAccessible(ann);
    } finally {
      await benContext.close();
    }
  });
});
