import { expect, expectAccessible, memberApi, milesNorth, passGate, test, uniqueEmail } from './fixtures';

/**
 * Issue 17: a newcomer's first run. Registration leads to a guided start (area by ZIP code, a want, an item),
 * whose steps can be done in order and put away; after it, a neighbor's matching item shows in
 * Barter Match. Then the layout points a newcomer stumbled on: the profile tabs on a 360 px screen,
 * a dialog's title in sight at 1280x800.
 */
test.describe('a newcomer’s first week', () => {
  test('register, then the guided start: area, a want, an item; then a match', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL }) => {
    test.setTimeout(60_000);
    // Its own title: the desktop and phone runs share one database and one Portland.
    const paddle = `Kayak paddle ${test.info().project.name} ${Date.now().toString(36)}`;
    // A neighbor in Portland offers a kayak paddle.
    const neighbor = await memberApi(
      baseURL ?? '',
      { firstName: 'Nell', lastName: 'Reyes', email: uniqueEmail('nell'), password: 'maple lantern 42' },
      { location: 'Portland', latitude: 45.5152 + milesNorth(1), longitude: -122.6784 },
    );
    try {
      const item = await neighbor.post('/api/items', {
        data: { title: paddle, category: 'sporting', description: 'Light carbon paddle.' },
      });
      expect(item.status(), await item.text()).toBe(201);
    } finally {
      await neighbor.dispose();
    }

    await page.goto('/');
    await page.getByRole('link', { name: 'Get Started Now' }).click();
    await page.getByLabel('First Name').fill('Noor');
    await page.getByLabel('Last Name').fill('Haddad');
    await page.getByLabel('Email').fill(uniqueEmail('noor'));
    await page.getByLabel('Password', { exact: true }).fill('maple lantern 42');
    await page.getByLabel('Confirm Password').fill('maple lantern 42');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Noor!' })).toBeVisible();

    // 1. The area.
    const guide = page.getByRole('region', { name: 'Get started in three steps' });
    await expect(guide.getByText('0 of 3 done')).toBeVisible();
    await expectAccessible(page);
    // By postal code, as a neighbor knows their area.
    const area = guide.getByRole('combobox', { name: 'Your area' });
    await area.pressSequentially('97214');
    await page.getByRole('option', { name: '97214, Portland, Oregon, United States' }).click();
    await guide.getByRole('button', { name: 'Save Area' }).click();
    await expect(guide.getByText('Your area: 97214, Portland, Oregon, United States')).toBeVisible();
    await expect(guide.getByText('1 of 3 done')).toBeVisible();

    // 2. A want, in the Want List's own dialog.
    await guide.getByRole('button', { name: 'Add a Want' }).click();
    const want = page.getByRole('dialog', { name: 'Add to Want List' });
    await want.getByLabel('Title').fill(paddle);
    await want.getByLabel('Category').selectOption('sporting');
    await want.getByRole('button', { name: 'Add Want' }).click();
    await expect(want).toBeHidden();
    await expect(guide.getByText('2 of 3 done')).toBeVisible();

    // 3. An item.
    await guide.getByRole('button', { name: 'Add an Item' }).click();
    const add = page.getByRole('dialog', { name: 'Add New Item' });
    await add.getByLabel('Title').fill('Camping stove');
    await add.getByLabel('Description').fill('Two burners, works well.');
    await add.getByLabel('Category').selectOption('sporting');
    await add.getByRole('button', { name: 'Add Item' }).click();
    await expect(add).toBeHidden();
    const done = page.getByRole('region', { name: 'You are all set' });
    await expect(done.getByText('3 of 3 done')).toBeVisible();
    await expectAccessible(page);

    await done.getByRole('button', { name: 'Done' }).click();
    await expect(done).toBeHidden();
    // The neighbor's paddle is a match (the match graph follows the new want in the background).
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('article', { name: paddle })).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole('region', { name: /Get started|all set/ })).toHaveCount(0);
  });

  test('skipped, the guide comes back from the account menu where it was left', async ({
    gatedPage: page,
    baseURL,
  }) => {
    const email = uniqueEmail('omar');
    const api = await memberApi(baseURL ?? '', { firstName: 'Omar', email, password: 'maple lantern 42' });
    await api.dispose();
    const signIn = await page.request.post('/api/auth/login', {
      data: { email, password: 'maple lantern 42' },
    });
    expect(signIn.status()).toBe(200);
    await page.goto('/');
    const guide = page.getByRole('region', { name: 'Get started in three steps' });
    await guide.getByRole('button', { name: 'Skip for Now' }).click();
    await expect(guide).toBeHidden();
    // The empty Barter Match leads to the location first.
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Set Location', exact: true }),
    ).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome, Omar!' })).toBeVisible();
    await expect(guide).toHaveCount(0);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Getting Started' }).click();
    await expect(guide.getByText('0 of 3 done')).toBeVisible();
  });

  test('the six profile tabs fit a 360 px screen; a dialog opens with its title in sight', async ({
    gatedPage: page,
    baseURL,
  }) => {
    const email = uniqueEmail('pia');
    const api = await memberApi(baseURL ?? '', { firstName: 'Pia', email, password: 'maple lantern 42' });
    await api.dispose();
    await passGate(page);
    expect(
      (
        await page.request.post('/api/auth/login', { data: { email, password: 'maple lantern 42' } })
      ).status(),
    ).toBe(200);

    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/profile');
    const tabs = page.getByRole('tablist', { name: 'Profile sections' }).getByRole('tab');
    await expect(tabs).toHaveCount(6);
    for (const tab of await tabs.all()) {
      const box = await tab.boundingBox();
      expect(box, (await tab.textContent()) ?? '').not.toBeNull();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
    }
    await page.getByRole('tab', { name: 'Saved' }).click();
    await expect(page).toHaveURL(/tab=saved$/);
    await expectAccessible(page);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Add Item' }).last().click();
    const title = page
      .getByRole('dialog', { name: 'Add New Item' })
      .getByRole('heading', { name: 'Add New Item' });
    await expect(title).toBeInViewport({ ratio: 1 });
    // The phone header keeps the Messages entry.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Messages', exact: true })).toBeVisible();
  });
});
