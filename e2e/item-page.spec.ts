import {
  expect,
  expectAccessible,
  expectFitsPhone,
  listItem,
  memberApi,
  milesNorth,
  passGate,
  test,
  toasts,
  uniqueEmail,
} from './fixtures';

const PASSWORD = 'maple lantern 42';
const PORTLAND = { location: 'Portland', latitude: 45.5152, longitude: -122.6784 };

/**
 * An item's own page (issue 31, ADR 083): a link to share, with its preview in the served HTML; a
 * visitor signed out who passes the gate sees the item and its area, signs in and proposes from it;
 * the owner gets their own controls; an item no longer shown is said to be gone.
 */
test.describe('item pages', () => {
  test('a shared link: the preview in the HTML, the gate, sign in, propose from the page', {
    tag: '@phone',
  }, async ({ page, baseURL, browser, consoleErrors }) => {
    const title = `Shared drill ${Date.now().toString(36)}`;
    const ownerEmail = uniqueEmail('sol');
    const owner = await memberApi(
      baseURL ?? '',
      { firstName: 'Sol', lastName: 'Reyes', email: ownerEmail, password: PASSWORD },
      { ...PORTLAND, latitude: PORTLAND.latitude + milesNorth(1) },
    );
    const visitorEmail = uniqueEmail('rae');
    const visitor = await memberApi(
      baseURL ?? '',
      { firstName: 'Rae', email: visitorEmail, password: PASSWORD },
      PORTLAND,
    );
    let itemId: number;
    try {
      itemId = await listItem(owner, title, 'tools');
      await listItem(visitor, `Rae's ladder ${Date.now().toString(36)}`, 'tools');
      // The served HTML carries the link preview, for a browser past the gate and signed out.
      const anonymous = await browser.newContext({ baseURL });
      expect(
        (await anonymous.request.post('/api/verify-password', { data: { password: 'barter' } })).ok(),
      ).toBe(true);
      const served = await anonymous.request.get(`/items/${itemId}`, { headers: { accept: 'text/html' } });
      expect(served.status()).toBe(200);
      const html = await served.text();
      await anonymous.close();
      expect(html).toContain(`<meta property="og:title" content="${title}" />`);
      expect(html).toContain(`<meta property="og:description" content="In good shape." />`);
      expect(html).toMatch(new RegExp(`<meta property="og:url" content="https?://[^"]+/items/${itemId}" />`));
      expect(html).toContain(`<title>${title} · Barterhood</title>`);
      expect(html).not.toContain(ownerEmail);
    } finally {
      await owner.dispose();
      await visitor.dispose();
    }

    // Signed out, the link opens the gate first; past it, the item itself.
    consoleErrors.allow(/status of 403/); // the gate's refused reads, before the password
    await page.goto(`/items/${itemId}`);
    await page.getByLabel('Site password').fill('barter');
    await page.getByRole('button', { name: 'Enter Site' }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('In good shape.')).toBeVisible();
    await expect(page.getByText(/Portland/).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Propose Barter' })).toHaveCount(0);
    await expectAccessible(page);
    await expectFitsPhone(page);

    // Sign in to propose: the login screen, then back on the item, where Propose Barter opens.
    await page.getByRole('link', { name: 'Sign in to propose' }).click();
    await expect(page).toHaveURL(/\/login\?next=/);
    await page.getByLabel('Email').fill(visitorEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(new RegExp(`/items/${itemId}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expectAccessible(page);
    await expectFitsPhone(page);
    await page.getByRole('button', { name: 'Propose Barter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Propose a Barter' });
    await expect(
      dialog.getByRole('group', { name: 'You ask for' }).getByRole('checkbox', { name: title }),
    ).toBeChecked();
    await dialog.getByRole('group', { name: 'You offer' }).getByRole('checkbox').first().check();
    await dialog.getByRole('button', { name: 'Send Proposal' }).click();
    await expect(dialog).toBeHidden();
    await expect(toasts(page).getByText('Proposal Sent')).toBeVisible();

    // The barter's page leads back to the item's.
    await toasts(page).getByRole('link', { name: 'View the barter' }).click();
    await page
      .getByRole('region', { name: /gives$/ })
      .getByRole('link', { name: title })
      .click();
    await expect(page).toHaveURL(new RegExp(`/items/${itemId}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  });

  test('share copies the link where there is no share sheet; the owner sees their controls', {
    tag: '@phone',
  }, async ({ page, baseURL, context }) => {
    const title = `Owner's lamp ${Date.now().toString(36)}`;
    const email = uniqueEmail('ola');
    const owner = await memberApi(baseURL ?? '', { firstName: 'Ola', email, password: PASSWORD }, PORTLAND);
    let itemId: number;
    try {
      itemId = await listItem(owner, title, 'furniture');
    } finally {
      await owner.dispose();
    }
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // No share sheet in this browser: the link is copied.
    await page.addInitScript(() => Object.defineProperty(navigator, 'share', { value: undefined }));
    await passGate(page);
    const login = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
    expect(login.status()).toBe(200);
    await page.goto(`/items/${itemId}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('This is your listing.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit in My Items' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Propose Barter' })).toHaveCount(0);
    await expectAccessible(page);
    await expectFitsPhone(page);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect(toasts(page).getByText('Link copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/items/${itemId}$`),
    );
  });

  test('from the quick look to the page; a page of an item no longer shown', { tag: '@phone' }, async ({
    gatedPage: page,
    baseURL,
    consoleErrors,
  }) => {
    const title = `Quick-look kettle ${Date.now().toString(36)}`;
    const owner = await memberApi(
      baseURL ?? '',
      { firstName: 'Kit', email: uniqueEmail('kit'), password: PASSWORD },
      { ...PORTLAND, latitude: PORTLAND.latitude + milesNorth(2) },
    );
    const email = uniqueEmail('viv');
    const viewer = await memberApi(baseURL ?? '', { firstName: 'Viv', email, password: PASSWORD }, PORTLAND);
    let itemId: number;
    try {
      itemId = await listItem(owner, title, 'appliances');
      expect((await viewer.put('/api/account/getting-started', { data: { completed: true } })).status()).toBe(
        200,
      );
    } finally {
      await viewer.dispose();
    }
    const login = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
    expect(login.status()).toBe(200);
    await page.goto('/');
    await page.getByRole('tab', { name: 'Everything' }).click();
    await page.getByRole('button', { name: title, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.getByRole('link', { name: `Open the item's page of ${title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/items/${itemId}$`));
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The owner takes it down: the page says it is gone, and the HTML answers 404 (which the
    // browser logs, as it does the item's read).
    consoleErrors.allow(/status of 404/);
    try {
      expect((await owner.patch(`/api/items/${itemId}`, { data: { isActive: false } })).status()).toBe(200);
    } finally {
      await owner.dispose();
    }
    const response = await page.goto(`/items/${itemId}`);
    expect(response?.status()).toBe(404);
    await expect(
      page.getByRole('heading', { level: 1, name: 'This item is no longer available' }),
    ).toBeVisible();
    await expectAccessible(page);
    expect((await page.goto('/items/%E2%80%AE1'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  });
});
