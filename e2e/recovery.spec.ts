import {
  createMember,
  expect,
  expectAccessible,
  type Page,
  signInThroughApi,
  test,
  uniqueEmail,
} from './fixtures';

/**
 * Issue 27: a busy server answered 503 to the account menu's script chunk and the page stayed blank.
 * Every lazily loaded chunk is asked for once more with a fresh URL, then the page says so with
 * Reload (web/lib/import-chunk.ts, ADR 052).
 */
const ACCOUNT_MENU_CHUNK = /\/assets\/account-menu-[\w-]+\.js$/;

/** Answers the chunk's requests 503, as load shedding did, `times` times; counts every request of it. */
async function shedChunk(page: Page, chunk: RegExp, times: number) {
  const requests: string[] = [];
  const matches = (url: URL) => chunk.test(url.pathname);
  await page.route(matches, async (route) => {
    requests.push(route.request().url());
    if (requests.length <= times) {
      await route.fulfill({
        status: 503,
        headers: { 'retry-after': '2', 'content-type': 'application/json' },
        body: JSON.stringify({
          message: 'The service is temporarily unavailable. Please try again shortly.',
          code: 'SERVICE_UNAVAILABLE',
        }),
      });
    } else {
      await route.continue();
    }
  });
  return { requests, release: () => page.unroute(matches) };
}

async function newMember(baseURL: string, firstName: string) {
  const member = {
    firstName,
    lastName: 'Reyes',
    email: uniqueEmail(firstName.toLowerCase()),
    password: 'correct horse battery',
  };
  await createMember(baseURL, member);
  return member;
}

/** The page fits a 390 px phone: nothing runs off to the side. */
async function expectNoSidewaysScroll(page: Page) {
  const { height } = page.viewportSize() ?? { height: 844 };
  await page.setViewportSize({ width: 390, height });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe('a script chunk that does not arrive', () => {
  test('failing once, is asked for again with a fresh URL and the page carries on by itself', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, consoleErrors }) => {
    // The browser logs the 503 it was given.
    consoleErrors.allow(/account-menu-[\w-]+\.js/);
    const member = await newMember(baseURL ?? '', 'Lucia');
    const shed = await shedChunk(page, ACCOUNT_MENU_CHUNK, 1);

    await signInThroughApi(page, { email: member.email, password: member.password });
    await page.goto('/');
    const menuButton = page.getByRole('banner').getByRole('button', { name: 'Account menu' });
    await menuButton.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText('Lucia Reyes')).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Log out' })).toBeVisible();

    // The first request was refused; the second was a new one (the browser keeps the failed module).
    expect(shed.requests.length).toBeGreaterThanOrEqual(2);
    expect(new URL(shed.requests[0] ?? '').search).toBe('');
    expect(new URL(shed.requests.at(-1) ?? '').searchParams.get('retry')).toBeTruthy();
    await expect(page.getByRole('alert').filter({ hasText: 'did not load' })).toHaveCount(0);
  });

  test('failing again, says so with Reload, and Reload brings the page back', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, consoleErrors }) => {
    consoleErrors.allow(/account-menu-[\w-]+\.js/);
    // React reports the error its boundary caught.
    consoleErrors.allow(/ChunkLoadError|A part of the app did not load|dynamically imported module/);
    const member = await newMember(baseURL ?? '', 'Tomas');
    const shed = await shedChunk(page, ACCOUNT_MENU_CHUNK, Number.POSITIVE_INFINITY);

    await page.goto('/login');
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    // Not a blank page: what happened, and the way on.
    const message = page.getByRole('alert').filter({ hasText: 'This page did not load' });
    await expect(message).toBeVisible();
    await expect(message).toContainText('Reload the page to get it.');
    const reload = message.getByRole('button', { name: 'Reload' });
    await expect(reload).toBeVisible();
    expect(shed.requests.some((url) => new URL(url).searchParams.has('retry'))).toBe(true);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    // The server is fine again; Reload loads the page and its chunks anew.
    await shed.release();
    await Promise.all([page.waitForEvent('load'), reload.click()]);
    await expect(page.getByRole('heading', { name: 'Welcome, Tomas!' })).toBeVisible();
    await page.getByRole('banner').getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menu').getByText('Tomas Reyes')).toBeVisible();
    await expect(message).toHaveCount(0);
  });
});
