import { blankPng, bookCoverPng } from '#server/features/analyze/test-images.ts';
import { createMember, expect, type Page, test, toasts, uniqueEmail } from './fixtures';

/**
 * Photo analysis as a new member meets it, with no network: the e2e server runs AI_PROVIDER=local
 * (tesseract.js and ZXing on the server, from installed packages).
 */

/** Sign a new member in (through the API: sign-in is not what is tested here) and open Add New Item. */
async function openAddItem(page: Page, baseURL: string, firstName: string, isMobile: boolean) {
  const email = uniqueEmail(firstName.toLowerCase());
  await createMember(baseURL, { firstName, lastName: 'Tester', email, password: 'maple lantern 42' });
  const login = await page.request.post('/api/auth/login', { data: { email, password: 'maple lantern 42' } });
  expect(login.ok()).toBe(true);
  await page.goto('/profile?tab=items');
  await expect(page.getByRole('heading', { name: 'My Items (0)' })).toBeVisible();
  if (isMobile)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Add' }).click();
  else await page.getByRole('button', { name: 'Add Item' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'Add New Item' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Choose a photo through the file chooser, as a member does. */
async function choosePhoto(page: Page, dialog: ReturnType<Page['getByRole']>, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose File' }).click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer });
}

test.describe('photo analysis', () => {
  test('a photo of a book cover fills the title and the category books', { tag: '@phone' }, async ({
    gatedPage: page,
    baseURL,
    isMobile,
  }) => {
    const dialog = await openAddItem(page, baseURL ?? '', 'Bilbo', isMobile);

    // Hold the analysis until the 'AI analyzing' state has been seen, then let it reach the server.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/analyze-image', async (route) => {
      await held;
      await route.continue();
    });

    await choosePhoto(page, dialog, 'the-hobbit.png', await bookCoverPng());
    await expect(dialog.getByRole('img', { name: 'Photo 1 of 1 (cover)' })).toBeVisible();
    await expect(dialog.getByRole('status').filter({ hasText: 'Analyzing photo...' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Take Photo' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Choose File' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Remove photo 1' })).toBeDisabled();
    release();

    await expect(toasts(page).getByText('AI Analysis Complete')).toBeVisible();
    await expect(toasts(page).getByText('Item details were generated from your photo.')).toBeVisible();
    await expect(dialog.getByLabel('Title')).toHaveValue(/The Hobbit/);
    await expect(dialog.getByLabel('Category')).toHaveValue('books');
    await expect(dialog.getByLabel('Description')).toHaveValue(/ISBN 9780261102217/);
    await expect(dialog.getByText('Analyzing photo...')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Choose File' })).toBeEnabled();

    // The member lists it as filled in.
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(toasts(page).getByText('Success')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'My Items (1)' })).toBeVisible();
    await expect(
      page.getByRole('listitem').filter({ hasText: 'The Hobbit' }).getByText('books'),
    ).toBeVisible();
  });

  test('a photo with nothing on it leaves the fields to the member and says so', async ({
    gatedPage: page,
    baseURL,
    isMobile,
  }) => {
    const dialog = await openAddItem(page, baseURL ?? '', 'Blanche', isMobile);
    await dialog.getByLabel('Title').fill('Green tablecloth');

    await choosePhoto(page, dialog, 'plain.png', await blankPng());
    await expect(toasts(page).getByText('AI Analysis Complete')).toBeVisible();
    await expect(
      toasts(page).getByText('We could not read details from this photo. Please fill them in.'),
    ).toBeVisible();
    await expect(dialog.getByLabel('Title')).toHaveValue('Green tablecloth');
    await expect(dialog.getByLabel('Description')).toHaveValue('');
    await expect(dialog.getByLabel('Category')).toHaveValue('');
    await expect(dialog.getByLabel('Estimated Value ($)')).toHaveValue('');
    await expect(dialog.getByRole('button', { name: 'Choose File' })).toBeEnabled();
  });
});
