import sharp from 'sharp';
import type { Item } from '#common/schemas/listings.ts';
import { annAndBen, expect, expectAccessible, expectFitsPhone, test, toasts } from './fixtures';

/** A generated photo of one colour, as a JPEG file for the file chooser. */
async function photo(name: string, colour: string) {
  const buffer = await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

test.describe('several photos and a condition (issue 31, ADR 082)', () => {
  test('Ann lists a bike with three photos and a condition, makes the third the cover, Ben sees it on the card, filters by condition and sees the gallery', {
    tag: '@phone',
  }, async ({ twoMembers }) => {
    test.setTimeout(180_000);
    const [ann, ben] = await twoMembers(...annAndBen());
    const page = ann.page;
    await page.goto('/profile?tab=items');
    await expect(page.getByRole('heading', { name: 'My Items (0)' })).toBeVisible();
    const isPhone = (page.viewportSize()?.width ?? 1280) < 640;
    if (isPhone)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Add' }).click();
    else await page.getByRole('button', { name: 'Add Item' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Add New Item' });

    // Three photos chosen at once.
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByRole('button', { name: 'Choose File' }).click();
    await (await chooser).setFiles([
      await photo('red.jpg', '#c0392b'),
      await photo('green.jpg', '#27ae60'),
      await photo('blue.jpg', '#2c3e50'),
    ]);
    const photos = dialog.getByRole('list', { name: 'Your photos, the cover first' }).getByRole('img');
    await expect(photos).toHaveCount(3);
    await expect(dialog.getByText(/3 of 8\./)).toBeVisible();
    const chosen = await photos.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')));

    // The blue one to the front, by keyboard, once the cover's analysis is done (the buttons wait for it).
    await expect(dialog.getByRole('button', { name: 'Move photo 3 up' })).toBeEnabled({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Move photo 3 up' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Move photo 2 up' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Photo 2 is now photo 1 of 3, the cover.')).toBeAttached();
    await expect(dialog.getByRole('img', { name: 'Photo 1 of 3 (cover)' })).toHaveAttribute(
      'src',
      chosen[2] ?? '',
    );

    await dialog.getByLabel('Title').fill('Road bike, 56 cm');
    await dialog.getByLabel('Description').fill('Steel frame, new tyres.');
    await dialog.getByLabel('Category').selectOption('bikes');
    await dialog.getByLabel('Condition (optional)').selectOption({ label: 'Like new' });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await expect(toasts(page).getByText('Your item has been added.')).toBeVisible({ timeout: 60_000 });
    await expect(dialog).toBeHidden();

    // Saved in that order: the cover is the blue photo, on Ann's card too.
    const mine = (await (await ann.api.get('/api/items/my')).json()) as Item[];
    const bike = mine.find((item) => item.title === 'Road bike, 56 cm');
    expect(bike?.photos).toHaveLength(3);
    expect(bike?.condition).toBe('like-new');
    const cover = await sharp(await (await ann.api.get(bike?.photos?.[0]?.imageUrl ?? '')).body()).stats();
    const means = cover.channels.slice(0, 3).map((channel) => channel.mean);
    // #2c3e50 (the red photo is #c0392b, the green one #27ae60).
    for (const [i, expected] of [0x2c, 0x3e, 0x50].entries())
      expect(Math.abs((means[i] ?? 0) - expected)).toBeLessThan(12);
    const myCard = page.getByRole('listitem').filter({ hasText: 'Road bike, 56 cm' });
    await expect(myCard.locator('img')).toHaveAttribute('src', bike?.thumbnailUrl ?? '');

    // Ben sees the cover and the condition on the card, and every photo in the detail's gallery.
    await ben.page.goto('/');
    await ben.page.getByRole('tab', { name: 'Everything' }).click();
    const card = ben.page.getByRole('article', { name: 'Road bike, 56 cm' });
    await expect(card.locator('img').first()).toHaveAttribute('src', bike?.thumbnailUrl ?? '');
    await expect(card.getByText('Condition: Like new')).toBeVisible();
    // The feed's condition filter (ADR 082 addendum): 'New' leaves the like-new bike out, 'Like new or
    // better' keeps it.
    const condition = ben.page.getByLabel('Condition', { exact: true });
    await condition.selectOption({ label: 'New' });
    await expect(card).toBeHidden();
    await condition.selectOption({ label: 'Like new or better' });
    await expect(card.getByText('Condition: Like new')).toBeVisible();
    await expectAccessible(ben.page);
    await expectFitsPhone(ben.page);
    await ben.page.goto(`/items/${bike?.id}`);
    const strip = ben.page.getByRole('region', { name: /Photos of Road bike, 56 cm: Photo 1 of 3/ });
    await expect(strip).toBeVisible();
    await expect(ben.page.getByText('Condition: Like new')).toBeVisible();
    await expect(ben.page.getByRole('img', { name: 'Road bike, 56 cm, photo 1 of 3' })).toHaveAttribute(
      'src',
      bike?.photos?.[0]?.imageUrl ?? '',
    );
    await strip.focus();
    await ben.page.keyboard.press('ArrowRight');
    await expect(ben.page.getByTestId('photo-gallery-position')).toHaveText('Photo 2 of 3');
    await ben.page.getByRole('button', { name: 'Next photo' }).click();
    await expect(ben.page.getByTestId('photo-gallery-position')).toHaveText('Photo 3 of 3');
    await expectAccessible(ben.page);
    await expectFitsPhone(ben.page);

    // Ann removes the cover and puts the red one first: the card follows.
    await myCard.getByRole('button', { name: 'Edit Road bike, 56 cm' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Item' });
    await expect(edit.getByLabel('Condition (optional)')).toHaveValue('like-new');
    await edit.getByRole('button', { name: 'Remove photo 1' }).click();
    await expect(
      edit.getByRole('list', { name: 'Your photos, the cover first' }).getByRole('img'),
    ).toHaveCount(2);
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit).toBeHidden();
    const after = ((await (await ann.api.get('/api/items/my')).json()) as Item[]).find(
      (item) => item.id === bike?.id,
    );
    expect(after?.photos?.map((p) => p.imageUrl)).toEqual(bike?.photos?.slice(1).map((p) => p.imageUrl));
    await expect(myCard.locator('img')).toHaveAttribute('src', after?.thumbnailUrl ?? '');
  });
});
