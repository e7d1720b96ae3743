import {
  createMember,
  expect,
  expectAccessible,
  markPage,
  type Page,
  passGate,
  signInThroughApi,
  stillSamePage,
  test,
  toasts,
  uniqueEmail,
} from './fixtures';
import { ANN_SHOWN } from './support/shown-name';

const password = 'maple lantern 42';

/** An item of the signed-in member of `page`, made through the API with the page's cookies. */
async function createItem(page: Page, title: string): Promise<number> {
  const response = await page.request.post('/api/items', {
    data: { title, description: 'In good shape.', category: 'tools' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** Send a message in a barter's conversation as the signed-in member of `page`. */
async function sendMessage(page: Page, barterId: number, content: string): Promise<void> {
  const response = await page.request.post(`/api/barter-requests/${barterId}/messages`, {
    data: { content },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The Messages entry: in the header on wider screens, the bottom navigation's tab on phones. */
const messagesEntry = (page: Page, isMobile: boolean, name: string) =>
  isMobile
    ? page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })
    : page.getByRole('banner').getByRole('link', { name, exact: true });

test.describe('live updates', () => {
  test('a proposal and messages reach the bell and the badges without a reload; the bell by mouse and keyboard', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, browser, isMobile }) => {
    test.setTimeout(90_000);
    const annEmail = uniqueEmail('ann');
    const benEmail = uniqueEmail('ben');
    await createMember(baseURL ?? '', { firstName: 'Ann', lastName: 'Able', email: annEmail, password });
    await createMember(baseURL ?? '', { firstName: 'Ben', lastName: 'Baker', email: benEmail, password });

    // Ben is this page; Ann has a browser of her own.
    await signInThroughApi(page, { email: benEmail, password });
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
    const annContext = await browser.newContext();
    try {
      const ann = await annContext.newPage();
      await passGate(ann);
      await signInThroughApi(ann, { email: annEmail, password });
      await ann.goto('/');
      const annHeader = ann.getByRole('banner');
      await expect(messagesEntry(ann, isMobile, 'Messages')).toBeVisible();

      const ladder = await createItem(ann, 'Aluminum ladder');
      const drill = await createItem(page, 'Cordless drill');
      await markPage(page);
      await markPage(ann);

      // Ann proposes: Ben's bell counts it while he looks at the home page.
      const proposed = await ann.request.post('/api/barter-requests', {
        data: { offeredItemIds: [ladder], requestedItemIds: [drill], message: 'Ladder for your drill?' },
      });
      expect(proposed.status(), await proposed.text()).toBe(201);
      const barterId = ((await proposed.json()) as { id: number }).id;
      await expect(header.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();

      // Ann writes: Ben's message badge (the header on desktop, the Messages tab on phones) and bell rise.
      await sendMessage(ann, barterId, 'Saturday morning suits me.');
      await expect(header.getByRole('button', { name: 'Notifications, 2 unread' })).toBeVisible();
      const messages = messagesEntry(page, isMobile, 'Messages, 1 unread');
      await expect(messages).toBeVisible();
      // It opens the inbox of conversations (ADR 076).
      await expect(messages).toHaveAttribute('href', '/messages');

      // Ben answers: Ann's badges rise in her own browser.
      await sendMessage(page, barterId, 'Great, see you then.');
      await expect(messagesEntry(ann, isMobile, 'Messages, 1 unread')).toBeVisible();
      await expect(annHeader.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
      expect(await stillSamePage(page)).toBe(true);
      expect(await stillSamePage(ann)).toBe(true);

      // The keyboard alone (nothing on Ben's page was touched yet, so Tab starts at the top): Tab to
      // the bell, open it, move into the list, close it again. First the sign-in toast goes: while a
      // toast is open, Radix ignores an Escape that comes before a just-opened menu has re-rendered
      // once, which a loaded machine can make the case.
      await expect(toasts(page).getByText("You've successfully logged in.")).toBeHidden({ timeout: 10_000 });
      const bell = header.getByRole('button', { name: /^Notifications/ });
      let reached = false;
      for (let i = 0; i < 10 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await bell.evaluate((element) => element === document.activeElement);
      }
      expect(reached, 'the bell is reachable with Tab').toBe(true);
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu');
      await expect(menu.getByRole('menuitem', { name: 'Mark all as read' })).toBeFocused();
      // The list is read on the first opening: move into it once it is there.
      await expect(menu.getByRole('menuitem', { name: /^Unread: / })).toHaveCount(2);
      await page.keyboard.press('ArrowDown');
      await expect(
        menu.getByRole('menuitem', { name: new RegExp(`^Unread: New message from ${ANN_SHOWN}`) }),
      ).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(bell).toBeFocused();

      // Opening the bell marked what it showed read (issue 28): the count is gone, and a second
      // opening by mouse lists both entries, newest first, now read; no serious axe findings while
      // the list is open.
      await expect(header.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
      await bell.click();
      await expect(menu.getByRole('menuitem', { name: /^Unread: / })).toHaveCount(0);
      const message = menu.getByRole('menuitem', { name: new RegExp(`^New message from ${ANN_SHOWN}, `) });
      const proposal = menu.getByRole('menuitem', { name: new RegExp(`^${ANN_SHOWN} proposed a barter, `) });
      await expect(message).toBeVisible();
      await expect(proposal).toHaveAttribute('href', `/barters/${barterId}`);
      await expectAccessible(page);

      // Following the proposal's entry opens the barter.
      await proposal.click();
      await expect(page).toHaveURL(new RegExp(`/barters/${barterId}$`));
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);

      // Something new while the bell is closed raises the count again; opening shows it unread (the
      // marks stay while the list is open), and "Mark all as read" keeps the list open.
      await sendMessage(ann, barterId, 'I can bring the ladder at nine.');
      await expect(header.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
      await bell.click();
      await expect(
        menu.getByRole('menuitem', { name: new RegExp(`^Unread: New message from ${ANN_SHOWN}`) }),
      ).toHaveCount(1);
      await expect(header.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
      await menu.getByRole('menuitem', { name: 'Mark all as read' }).click();
      await expect(menu.getByRole('menuitem', { name: /^Unread: / })).toHaveCount(0);
      await expect(menu.getByRole('menuitem', { name: 'Mark all as read' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      expect(await stillSamePage(page)).toBe(true);
    } finally {
      await annContext.close();
    }
  });

  test('signed out elsewhere, the page turns to its signed-out screens and stops asking for events @desktop-only', async ({
    gatedPage: page,
    baseURL,
    consoleErrors,
  }) => {
    // Nothing here depends on the screen size, so it runs once.
    const email = uniqueEmail('dora');
    await createMember(baseURL ?? '', { firstName: 'Dora', lastName: 'Dean', email, password });
    const streams: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/events') streams.push(request.url());
    });
    // The page's clock runs as usual, and can be moved past every timer that could open a stream again.
    await page.clock.install();
    await signInThroughApi(page, { email, password });
    await page.goto('/');
    await expect.poll(() => streams.length).toBe(1);
    // The browser logs the refused reconnect.
    consoleErrors.allow(/\/api\/events/);
    await markPage(page);

    // The session ends from outside the page (another tab's Log out). The server ends the session's
    // streams at once (no heartbeat needed); the browser reconnects by itself and is refused.
    const refused = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/events' && response.status() === 401,
    );
    expect((await page.request.post('/api/auth/logout')).ok()).toBe(true);
    await refused;
    await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible({
      timeout: 15_000,
    });
    expect(await stillSamePage(page)).toBe(true);
    const asked = streams.length;
    // Past the longest retry (RETRY_MAX_MS, 30 s) and the stream's linger (LINGER_MS, 10 s) in
    // web/features/notifications/live-events.ts: any timer that would open a stream again has fired.
    await page.clock.runFor(45_000);
    // A request the page makes after those timers: a stream they opened would have been asked first.
    const marker = page.waitForRequest((request) => new URL(request.url()).pathname === '/healthz');
    await page.evaluate(() => fetch('/healthz').then((response) => response.status));
    await marker;
    expect(streams.length, 'no more event streams once signed out').toBe(asked);
  });

  test('the Messages entry leads to the inbox of conversations', { tag: '@phone' }, async ({
    gatedPage: page,
    baseURL,
    isMobile,
  }) => {
    const email = uniqueEmail('cleo');
    await createMember(baseURL ?? '', { firstName: 'Cleo', lastName: 'Cole', email, password });
    await signInThroughApi(page, { email, password });
    await page.goto('/');
    if (isMobile) {
      const tab = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' });
      await expect(tab).toBeEnabled();
      await tab.click();
      await expect(page).toHaveURL(/\/messages$/);
      await expect(tab).toHaveAttribute('aria-current', 'page');
    } else {
      const icon = page.getByRole('banner').getByRole('link', { name: 'Messages', exact: true });
      await icon.click();
      await expect(page).toHaveURL(/\/messages$/);
      await expect(icon).toHaveAttribute('aria-current', 'page');
    }
    await expect(page.getByText(/^No conversations yet\./)).toBeVisible();
    await expectAccessible(page);
  });
});
