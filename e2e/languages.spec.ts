import { expect, expectAccessible, memberApi, milesNorth, test, uniqueEmail } from './fixtures';
import { es, expectNoEnglish } from './support/spanish';

/**
 * Issue 17, ADR 036: a newcomer who reads Spanish. The footer's language menu switches the whole app:
 * registration, its validation, the guided start, Barter Match (distances in kilometres), the
 * profile and the barters; a reload keeps the choice, and the account tab switches back.
 */
test.describe('in two languages', () => {
  test('a newcomer switches to Spanish in the footer and keeps it until switching back', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL }) => {
    test.setTimeout(90_000);
    const paddle = `Remo de kayak ${test.info().project.name} ${Date.now().toString(36)}`;
    const neighbor = await memberApi(
      baseURL ?? '',
      { firstName: 'Nell', lastName: 'Reyes', email: uniqueEmail('nell-es'), password: 'maple lantern 42' },
      { location: 'Portland', latitude: 45.5152 + milesNorth(1), longitude: -122.6784 },
    );
    try {
      const item = await neighbor.post('/api/items', {
        data: { title: paddle, category: 'sporting', description: 'Remo ligero de carbono.' },
      });
      expect(item.status(), await item.text()).toBe(201);
    } finally {
      await neighbor.dispose();
    }

    // The landing page, in English for an English browser, then in Spanish from the footer.
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByRole('contentinfo').getByLabel('Language').selectOption('es');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('link', { name: es('Get Started Now') })).toBeVisible();
    await expectNoEnglish(page, 'the landing page');
    await expectAccessible(page);

    // Registration, its validation in Spanish too.
    await page.getByRole('link', { name: es('Get Started Now') }).click();
    await page.getByLabel(es('First Name')).fill('Noor');
    await page.getByLabel(es('Last Name')).fill('Haddad');
    await page.getByLabel(es('Email')).fill(uniqueEmail('noor-es'));
    await page.getByLabel(es('Password'), { exact: true }).fill('maple lantern 42');
    await page.getByLabel(es('Confirm Password')).fill('maple lantern 43');
    await page.getByRole('button', { name: es('Create Account') }).click();
    await expect(page.getByText(es("Passwords don't match"))).toBeVisible();
    await expectNoEnglish(page, 'the registration form');
    await page.getByLabel(es('Confirm Password')).fill('maple lantern 42');
    await page.getByRole('button', { name: es('Create Account') }).click();
    await expect(
      page.getByRole('heading', { name: es('Welcome, {firstName}!').replace('{firstName}', 'Noor') }),
    ).toBeVisible();

    // The guided start: the area by ZIP code, a want, an item (its validation in Spanish).
    const guide = page.getByRole('region', { name: es('Get started in three steps') });
    await expect(guide.getByText(es('{count} of 3 done').replace('{count}', '0'))).toBeVisible();
    await expectNoEnglish(page, 'the guided start');
    await expectAccessible(page);
    await guide.getByRole('combobox', { name: es('Your area') }).pressSequentially('97214');
    await page.getByRole('option', { name: /^97214, Portland/ }).click();
    await guide.getByRole('button', { name: es('Save Area') }).click();
    await expect(guide.getByText(es('{count} of 3 done').replace('{count}', '1'))).toBeVisible();

    await guide.getByRole('button', { name: es('Add a Want') }).click();
    const want = page.getByRole('dialog', { name: es('Add to Want List') });
    await want.getByLabel(es('Title')).fill(paddle);
    await want.getByLabel(es('Category')).selectOption('sporting');
    await want.getByRole('button', { name: es('Add Want') }).click();
    await expect(want).toBeHidden();

    await guide.getByRole('button', { name: es('Add an Item') }).click();
    const add = page.getByRole('dialog', { name: es('Add New Item') });
    await add.getByRole('button', { name: es('Add Item') }).click();
    await expect(add.getByText(es('Title is required'))).toBeVisible();
    await expectNoEnglish(page, 'the add-item form');
    await expectAccessible(page);
    await add.getByLabel(es('Title')).fill('Hornillo de camping');
    await add.getByLabel(es('Description')).fill('Dos fuegos, funciona bien.');
    await add.getByLabel(es('Category')).selectOption('sporting');
    await add.getByRole('button', { name: es('Add Item') }).click();
    await expect(add).toBeHidden();
    const done = page.getByRole('region', { name: es('You are all set') });
    await done.getByRole('button', { name: es('Done') }).click();

    // Barter Match: the neighbor's paddle, its distance in kilometres; a reload stays in Spanish.
    const card = page.getByRole('article', { name: paddle });
    await expect(async () => {
      await page.reload();
      await expect(card).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(card.getByText(/^\d+,\d km$/)).toBeVisible();
    await expect(card.getByText(/\bmi\b/)).toHaveCount(0);
    await expectNoEnglish(page, 'Barter Match');
    await expectAccessible(page);

    // Screens loaded later wait for the rest of the messages: no English, no message ids.
    await page.goto('/profile');
    await expect(page.getByRole('tablist', { name: es('Profile sections') })).toBeVisible();
    await expectNoEnglish(page, 'the profile');
    await expectAccessible(page);
    await page.goto('/barters');
    await expect(page.getByRole('heading', { name: es('Barters'), level: 1 })).toBeVisible();
    await expectNoEnglish(page, 'the barters');
    await expectAccessible(page);

    // The account tab switches back to English, and it stays.
    await page.goto('/profile?tab=account');
    await page.getByRole('main').getByLabel(es('Language')).selectOption('en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('tablist', { name: 'Profile sections' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Account' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});
