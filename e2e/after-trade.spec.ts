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
 * Items and wants after a trade (issue 30, ADR 073), as two neighbors live it in two browsers: they
 * complete a barter; Ann's drill then reads "Traded to Ben ..." with no Show and no Edit (and the API
 * refuses to show it again); Ben is asked "Did this fill your want?" (on the barter, his Want List and
 * his bell), says yes, and his want moves to
 * "Fulfilled" and stops matching another drill nearby, until he keeps it open.
 */

const password = 'maple lantern 42';

test.describe('after a trade @desktop-only', () => {
  test('the traded item reads "Traded to ..." with no Show; the met want is fulfilled and stops matching', async ({
    gatedPage: ann,
    baseURL,
    browser,
  }) => {
    test.setTimeout(150_000);
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
    const danApi = await memberApi(
      baseURL ?? '',
      { firstName: 'Dan', lastName: 'Dale', email: uniqueEmail('dan'), password },
      { location: 'Testville South', latitude: origin.latitude - milesNorth(1), longitude: origin.longitude },
    );
    const benName = await shownName(annApi, benApi);
    const created = async (api: typeof annApi, url: string, data: object) => {
      const response = await api.post(url, { data });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as { id: number };
    };
    let drillId = 0;
    try {
      const drill = await created(annApi, '/api/items', {
        title: 'Cordless drill',
        description: 'With two batteries.',
        category: 'tools',
      });
      drillId = drill.id;
      const lamp = await created(benApi, '/api/items', {
        title: 'Brass desk lamp',
        description: 'Warm light.',
        category: 'household',
      });
      await created(danApi, '/api/items', {
        title: 'Cordless drill 18V',
        description: 'Barely used.',
        category: 'tools',
      });
      await created(benApi, '/api/wants', { title: 'Cordless drill', category: 'tools' });
      const barter = await created(annApi, '/api/barter-requests', {
        offeredItemIds: [drill.id],
        requestedItemIds: [lamp.id],
      });
      const accepted = await benApi.post(`/api/barter-requests/${barter.id}/accept`);
      expect(accepted.status(), await accepted.text()).toBe(200);

      const benContext = await browser.newContext();
      try {
        const ben = await benContext.newPage();
        await passGate(ben);
        await signInThroughApi(ben, { email: benEmail, password });
        await ben.goto('/');
        // Barter Match shows Ben Dan's drill: it matches his want.
        const dansDrill = ben.getByRole('article', { name: 'Cordless drill 18V' });
        await expect(dansDrill.getByText('Matches your want: Cordless drill')).toBeVisible();

        await signInThroughApi(ann, { email: annEmail, password });
        // --- Both confirm on the barter page. ---
        await ann.goto(`/barters/${barter.id}`);
        await ben.goto(`/barters/${barter.id}`);
        await ann.getByRole('button', { name: 'Confirm completed' }).click();
        await expect(ben.getByText(/Ann A\S*\.? confirmed the exchange/)).toBeVisible();
        await ben.getByRole('button', { name: 'Confirm completed' }).click();
        await expect(ben.getByText('Completed', { exact: true })).toBeVisible();
        await expect(ann.getByText('Completed', { exact: true })).toBeVisible();

        // --- Ann's drill: "Traded to Ben ...", no Show, no Edit; the API refuses to show it too. ---
        await ann.goto('/profile?tab=items');
        const annDrill = ann.getByRole('listitem').filter({ hasText: 'Cordless drill' });
        await expect(annDrill.getByText(`Traded to ${benName}`)).toBeVisible();
        await expect(annDrill.getByText('Hidden', { exact: true })).toHaveCount(0);
        await expect(annDrill.getByRole('button', { name: /^(Show|Edit) / })).toHaveCount(0);
        await expect(annDrill.getByRole('button', { name: 'Delete Cordless drill' })).toBeVisible();
        await expectAccessible(ann);
        await expectFitsPhone(ann);
        const shown = await annApi.patch(`/api/items/${drillId}`, { data: { isActive: true } });
        expect(shown.status()).toBe(409);
        expect(((await shown.json()) as { code: string }).code).toBe('ITEM_TRADED');

        // --- Ben: "Did this fill your want?" on the completed barter, answered with one click. ---
        const question = ben.getByRole('region', { name: 'Did this fill your want?' });
        await expect(question.getByText('Cordless drill')).toBeVisible();
        await expectAccessible(ben);
        await expectFitsPhone(ben);
        // The same question waits on the want's row of his Want List, linked to the barter, for a
        // member who never reopens the barter's page (ADR 073 addendum).
        await ben.goto('/profile?tab=wants');
        const wantRow = ben
          .getByRole('listitem')
          .filter({ has: ben.getByRole('heading', { name: 'Cordless drill', exact: true }) });
        const asked = wantRow.getByRole('list', { name: 'Questions about this want' });
        const toBarter = asked.getByRole('link', { name: 'this completed barter' });
        await expect(toBarter).toHaveAttribute('href', `/barters/${barter.id}`);
        await expect(
          asked.getByRole('button', { name: 'Yes, this filled my want: Cordless drill' }),
        ).toBeVisible();
        await expectAccessible(ben);
        await expectFitsPhone(ben);
        // His bell says so too, opening the barter where the question is (ADR 078).
        const benBell = ben.getByRole('banner').getByRole('button', { name: /^Notifications/ });
        await benBell.click();
        const bellEntry = ben.getByRole('menuitem', { name: /Did this completed barter fill your want\?/ });
        await expect(bellEntry).toHaveAttribute('href', `/barters/${barter.id}`);
        await expectAccessible(ben);
        await bellEntry.click();
        await question.getByRole('button', { name: 'Yes, this filled my want: Cordless drill' }).click();
        await expect(question).toBeHidden();
        // Answered: the entry has left his bell; the completion's stays.
        await benBell.click();
        await expect(
          ben.getByRole('menuitem', { name: /Barter completed: you can now rate it/ }),
        ).toBeVisible();
        await expect(
          ben.getByRole('menuitem', { name: /Did this completed barter fill your want\?/ }),
        ).toHaveCount(0);
        await ben.keyboard.press('Escape');

        // The want moved to "Fulfilled" and stopped matching: Dan's drill leaves Ben's Barter Match.
        await ben.goto('/profile?tab=wants');
        const fulfilled = ben.getByRole('region', { name: 'Fulfilled' });
        await expect(fulfilled.getByText('Cordless drill')).toBeVisible();
        await expectAccessible(ben);
        await expectFitsPhone(ben);
        await expect
          .poll(async () => {
            const feed = await benApi.get('/api/feed/barter-match');
            return ((await feed.json()) as Array<{ title: string }>).map((item) => item.title);
          })
          .not.toContain('Cordless drill 18V');

        // "I want more of these": active again.
        await ben.goto('/profile?tab=wants');
        await ben
          .getByRole('region', { name: 'Fulfilled' })
          .getByRole('button', { name: 'I want more of these: Cordless drill' })
          .click();
        await expect(ben.getByRole('region', { name: 'Fulfilled' })).toBeHidden();
        await expect(ben.getByRole('button', { name: 'Edit Cordless drill' })).toBeVisible();
      } finally {
        await benContext.close();
      }
    } finally {
      await annApi.dispose();
      await benApi.dispose();
      await danApi.dispose();
    }
  });
});
