import { annAndBen, expect, expectAccessible, expectFitsPhone, test } from './fixtures';

// The header's search reads all listings within the member's distance (issue 31, ADR 089): Ben, on
// Barter Match (where Ann's tune-up matches none of his wants), types "bike tunup" in the search box
// and the results page shows Ann's "Bike tune-up", says it read "bike tune-up", and offers the feeds'
// filters and Save search. Desktop and phone (the phone's box is on the page: the header's is a desktop one).

test('on Barter Match, "bike tunup" in the search box shows the tune-up listing on the results page @phone', async ({
  twoMembers,
  isMobile,
}) => {
  const [{ api: annApi }, { page: ben }] = await twoMembers(...annAndBen());
  const title = `Bike tune-up at home ${test.info().project.name}`;
  const listed = await annApi.post('/api/items', {
    data: { title, category: 'bikes', description: 'Gears, brakes and a wash.' },
  });
  expect(listed.status(), await listed.text()).toBe(201);

  await ben.goto('/');
  await expect(ben.getByRole('tab', { name: 'Barter Match' })).toHaveAttribute('aria-selected', 'true');
  const box = isMobile ? ben.locator('#mobile-search') : ben.getByRole('banner').locator('#header-search');
  await expect(box).toHaveAccessibleName('Search items or services');
  await box.fill('bike tunup');
  await box.press('Enter');

  await expect(ben).toHaveURL(/\/search\?q=bike%20tunup$/);
  await expect(ben.getByRole('heading', { level: 1, name: 'Results for “bike tunup”' })).toBeVisible();
  await expect(ben.getByText('Showing results for')).toContainText('Showing results for bike tune-up');
  const results = ben.getByRole('region', { name: 'Search results' });
  const card = results.getByRole('article', { name: title });
  await expect(card).toBeVisible();
  await expectAccessible(ben);
  await expectFitsPhone(ben);

  // The feeds' filters: a condition level hides a listing that states none, Any condition brings it back.
  await ben.getByLabel('Condition').selectOption({ label: 'Like new or better' });
  await expect(card).toHaveCount(0);
  await expect(ben.getByRole('heading', { name: 'No results for “bike tunup”' })).toBeVisible();
  await ben.getByLabel('Condition').selectOption({ label: 'Any condition' });
  await expect(card).toBeVisible();

  // Save search, by keyboard: the dialog names it after the text.
  await ben.getByRole('button', { name: 'Save search' }).focus();
  await ben.keyboard.press('Enter');
  const dialog = ben.getByRole('dialog', { name: 'Save this search' });
  await expect(dialog.getByLabel('Name')).toHaveValue('bike tunup');
  await expectAccessible(ben);
  await ben.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
