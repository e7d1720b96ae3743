import type { Locator } from '@playwright/test';
import {
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  markPage,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  signInThroughApi,
  stillSamePage,
  test,
  uniqueEmail,
} from './fixtures';
import { shownName } from './support/shown-name';

/**
 * Issue 30's conversations (ADR 076), as a member lives them while a neighbour writes: a message
 * arrives and the Messages icon says so, the inbox lists the conversation and moves it to the top
 * when another arrives, opening it clears the count, and a counter keeps what was said before it.
 */

const password = 'maple lantern 42';

/** Press Tab until `target` has the focus (at most `limit` times): it is reachable by keyboard. */
async function tabTo(page: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error('not reached by Tab');
}

test.describe('conversations @desktop-only', () => {
  test('a message arrives, the icon says 1, the inbox lists it and opening it clears it; a counter keeps the earlier messages', async ({
    gatedPage: ben,
    baseURL,
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
    try {
      const annName = await shownName(benApi, annApi);
      const post = async (api: typeof annApi, title: string, category: string) => {
        const response = await api.post('/api/items', {
          data: { title, description: 'In good shape.', category },
        });
        expect(response.status(), await response.text()).toBe(201);
        return ((await response.json()) as { id: number }).id;
      };
      const drill = await post(benApi, 'Cordless drill', 'tools');
      const ladder = await post(benApi, 'Aluminum ladder', 'tools');
      const bike = await post(annApi, 'Mountain bike', 'bikes');
      const chair = await post(annApi, 'Folding chair', 'furniture');
      const propose = async (offered: number, requested: number, message?: string) => {
        const response = await annApi.post('/api/barter-requests', {
          data: { offeredItemIds: [offered], requestedItemIds: [requested], ...(message ? { message } : {}) },
        });
        expect(response.status(), await response.text()).toBe(201);
        return ((await response.json()) as { id: number }).id;
      };
      const forDrill = await propose(bike, drill, 'My bike for your drill?');
      const forLadder = await propose(chair, ladder);
      const annWrites = async (barterId: number, content: string) => {
        const response = await annApi.post(`/api/barter-requests/${barterId}/messages`, {
          data: { content },
        });
        expect(response.status(), await response.text()).toBe(201);
      };

      // --- Ben is on the feed; nothing unread yet. ---
      await signInThroughApi(ben, { email: benEmail, password });
      await ben.goto('/');
      await markPage(ben);
      const header = ben.getByRole('banner');
      await expect(header.getByRole('link', { name: 'Messages', exact: true })).toBeVisible();

      // --- Ann writes: the icon says 1 without a reload; it opens the inbox, which lists it. ---
      await annWrites(forDrill, 'Is the drill still there?');
      const icon = header.getByRole('link', { name: 'Messages, 1 unread' });
      await expect(icon).toBeVisible();
      await icon.click();
      await expect(ben).toHaveURL(/\/messages$/);
      await expect(ben.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
      const rows = ben.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(annName);
      await expect(rows.first()).toContainText('Is the drill still there?');
      await expect(rows.first()).toContainText('1 unread message');
      expect(await stillSamePage(ben)).toBe(true);
      await expectAccessible(ben);

      // --- Live on the open inbox: a new conversation comes in on top, then the first moves back up. ---
      await annWrites(forLadder, 'And the ladder, for my chair?');
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText('And the ladder, for my chair?');
      await annWrites(forDrill, 'Saturday works for me.');
      await expect(rows.first()).toContainText('Saturday works for me.');
      await expect(rows.first()).toContainText('2 unread messages');
      await expect(rows.nth(1)).toContainText('1 unread message');
      await expect(header.getByRole('link', { name: 'Messages, 3 unread' })).toBeVisible();

      // --- By keyboard: the first row opens its conversation, which marks it read. ---
      const firstRow = rows.first().getByRole('link', { name: annName });
      await tabTo(ben, firstRow);
      await ben.keyboard.press('Enter');
      await expect(ben).toHaveURL(new RegExp(`/barters/${forDrill}$`));
      const messages = ben.getByRole('list', { name: 'Messages' });
      await expect(messages.getByText('My bike for your drill?')).toBeVisible();
      await expect(messages.getByText('Is the drill still there?')).toBeVisible();
      await expect(messages.getByText('Saturday works for me.')).toBeVisible();
      await expect(header.getByRole('link', { name: 'Messages, 1 unread' })).toBeVisible();
      await header.getByRole('link', { name: 'Messages, 1 unread' }).click();
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).not.toContainText('unread');
      await expect(rows.nth(1)).toContainText('1 unread message');

      // --- Ben counters the bike proposal: the counter's page keeps everything said before it. ---
      await rows.first().getByRole('link', { name: annName }).click();
      await ben.getByRole('button', { name: 'Counter' }).click();
      const counter = ben.getByRole('dialog', { name: 'Counter Offer' });
      const asked = counter.getByRole('group', { name: 'You ask for' });
      await asked.getByRole('checkbox', { name: 'Mountain bike' }).uncheck();
      await asked.getByRole('checkbox', { name: 'Folding chair' }).check();
      await counter.getByLabel('Message (optional)').fill('I would rather have the chair.');
      await counter.getByRole('button', { name: 'Send Counter Offer' }).click();
      await expect(counter).toBeHidden();
      await expect(ben.getByRole('button', { name: 'Withdraw' })).toBeVisible();
      expect(ben.url()).not.toMatch(new RegExp(`/barters/${forDrill}$`));
      const afterCounter = ben.getByRole('list', { name: 'Messages' }).getByRole('listitem');
      await expect(afterCounter).toHaveCount(4);
      await expect(afterCounter.nth(0)).toContainText(`${annName}'s message with the proposal`);
      await expect(afterCounter.nth(0)).toContainText('My bike for your drill?');
      await expect(afterCounter.nth(1)).toContainText('Is the drill still there?');
      await expect(afterCounter.nth(2)).toContainText('Saturday works for me.');
      await expect(afterCounter.nth(3)).toContainText('Your message with the counter offer');
      await expect(afterCounter.nth(3)).toContainText('I would rather have the chair.');
      // Ann's side of the counter reads the same conversation.
      const counterId = Number(ben.url().split('/').at(-1));
      const annSees = await annApi.get(`/api/barter-requests/${counterId}/messages`);
      expect(((await annSees.json()) as Array<{ content: string }>).map((m) => m.content)).toEqual([
        'Is the drill still there?',
        'Saturday works for me.',
      ]);
      // A message on the counter stays in the same row of the inbox.
      await ben.getByRole('textbox', { name: 'Message', exact: true }).fill('The chair would be perfect.');
      await ben.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(
        ben.getByRole('list', { name: 'Messages' }).getByText('The chair would be perfect.'),
      ).toBeVisible();

      // --- On a 390 px phone: the Messages tab opens the same inbox, which fits the screen. ---
      await ben.setViewportSize({ width: 390, height: 844 });
      await ben
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: /^Messages/ })
        .click();
      await expect(ben).toHaveURL(/\/messages$/);
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText('You: The chair would be perfect.');
      await expect(rows.nth(1)).toContainText('1 unread message');
      await expectNoSidewaysScroll(ben, ben.viewportSize()?.width ?? 0);
      await expectAccessible(ben);
      expect(await stillSamePage(ben)).toBe(true);
    } finally {
      await annApi.dispose();
      await benApi.dispose();
    }
  });
});
