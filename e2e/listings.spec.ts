import sharp from 'sharp';
import { expect, expectAccessible, type Page, type SignUp, test, toasts, uniqueEmail } from './fixtures';

/** A new member, signed up through the API (signing in is not what these journeys test), at home. */
async function signInNewMember(page: Page, signUp: SignUp, firstName: string) {
  const email = uniqueEmail(firstName.toLowerCase());
  await signUp({ firstName, lastName: 'Tester', email, password: 'maple lantern 42' });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: `Welcome, ${firstName}!` })).toBeVisible();
}

/** A generated test photo: a red square with a blue bar, as a JPEG file for the file chooser. */
async function testPhoto(): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="700"><rect width="900" height="700" fill="#c0392b"/><rect y="300" width="900" height="100" fill="#2c3e50"/></svg>';
  return {
    name: 'drill.jpg',
    mimeType: 'image/jpeg',
    buffer: await sharp(Buffer.from(svg)).jpeg().toBuffer(),
  };
}

test.describe('items and wants', () => {
  test('an item with a photo appears in My Items; the service toggle swaps the categories', {
    tag: '@phone',
  }, async ({ gatedPage: page, signUp, isMobile }) => {
    await signInNewMember(page, signUp, 'Ivy');
    await page.goto('/profile?tab=items');
    await expect(page.getByRole('heading', { name: 'My Items (0)' })).toBeVisible();
    await expectAccessible(page);

    if (isMobile)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Add' }).click();
    else await page.getByRole('button', { name: 'Add Item' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Add New Item' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);

    // Required fields.
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await expect(dialog.getByText('Description is required')).toBeVisible();
    await expect(dialog.getByText('Category is required')).toBeVisible();

    // The service toggle clears the category and swaps the list.
    const category = dialog.getByLabel('Category');
    await category.selectOption('tools');
    await expect(category.locator('option', { hasText: 'skilled trade' })).toHaveCount(0);
    await dialog.getByRole('switch', { name: 'This is a service' }).click();
    await expect(category).toHaveValue('');
    await expect(category.locator('option', { hasText: 'skilled trade' })).toHaveCount(1);
    await expect(category.locator('option', { hasText: 'tools' })).toHaveCount(0);
    await dialog.getByRole('switch', { name: 'This is a service' }).click();

    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose File' }).click();
    await (await chooser).setFiles(await testPhoto());
    await expect(dialog.getByRole('img', { name: 'Photo 1 of 1 (cover)' })).toBeVisible();

    await dialog.getByLabel('Title').fill('Cordless drill, 18V');
    await dialog.getByLabel('Description').fill('Two batteries and a charger. Works great.');
    await category.selectOption('tools');
    await dialog.getByLabel('Estimated Value ($)').fill('85');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(toasts(page).getByText('Success')).toBeVisible();
    await expect(dialog).toBeHidden();

    const card = page.getByRole('listitem').filter({ hasText: 'Cordless drill, 18V' });
    await expect(page.getByRole('heading', { name: 'My Items (1)' })).toBeVisible();
    await expect(card.getByText('tools')).toBeVisible();
    const image = card.locator('img');
    await expect(image).toHaveAttribute('src', /^\/photos\//);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Edit it into a service; then delete it.
    await card.getByRole('button', { name: 'Edit Cordless drill, 18V' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Item' });
    await edit.getByLabel('Title').fill('Cordless drill lending, 18V');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('heading', { name: 'Cordless drill lending, 18V' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete Cordless drill lending, 18V' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this item?' })
      .getByRole('button', { name: 'Delete Item' })
      .click();
    await expect(page.getByRole('heading', { name: 'My Items (0)' })).toBeVisible();
  });

  test('the camera dialog captures a photo with the fake camera @desktop-only', async ({
    gatedPage: page,
    signUp,
  }) => {
    await signInNewMember(page, signUp, 'Cam');
    await page.getByRole('button', { name: 'Add Item' }).last().click();
    await page.getByRole('button', { name: 'Take Photo' }).click();
    const camera = page.getByRole('dialog', { name: 'Take Photo' });
    await expect(camera).toBeVisible();
    await expectAccessible(page);
    await expect(camera.getByRole('button', { name: 'Capture' })).toBeEnabled();
    await camera.getByRole('button', { name: 'Capture' }).click();
    await expect(camera.getByRole('img', { name: 'Captured preview' })).toBeVisible();
    await camera.getByRole('button', { name: 'Retake' }).click();
    await camera.getByRole('button', { name: 'Capture' }).click();
    await camera.getByRole('button', { name: 'Use Photo' }).click();
    await expect(camera).toBeHidden();
    const preview = page
      .getByRole('dialog', { name: 'Add New Item' })
      .getByRole('img', { name: 'Photo 1 of 1 (cover)' });
    await expect(preview).toHaveAttribute('src', /^data:image\/jpeg/);
  });

  test('a want appears in the Want List; an inappropriate want is refused', async ({
    gatedPage: page,
    signUp,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 400 .*\/api\/wants/);
    await signInNewMember(page, signUp, 'Walt');
    await page.goto('/profile?tab=wants');
    await expect(page.getByRole('heading', { name: 'Want List (0)' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Want' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to Want List' });
    await expectAccessible(page);
    await dialog.getByLabel('Title').fill('Kayak paddle');
    await dialog.getByLabel('Category').selectOption('sporting');
    await dialog.getByLabel('Max Value ($, optional)').fill('60');
    await dialog.getByRole('button', { name: 'Add Want' }).click();
    await expect(toasts(page).getByText('Want Added')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Want List (1)' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Kayak paddle' })).toContainText(
      'Up to $60.00',
    );

    await page.getByRole('button', { name: 'Add Want' }).click();
    await dialog.getByLabel('Title').fill('Looking for weed and a hookup');
    await dialog.getByLabel('Category').selectOption('wanted');
    await dialog.getByRole('button', { name: 'Add Want' }).click();
    await expect(toasts(page).getByText('Content Not Allowed')).toBeVisible();
    await expect(
      toasts(page).getByText('Please use appropriate language when describing what you want.'),
    ).toBeVisible();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'Want List (1)' })).toBeVisible();
  });
});
