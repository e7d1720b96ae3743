import { annAndBen, expect, expectAccessible, expectFitsPhone, type Page, test } from './fixtures';

// Saved searches and fair alerts (issue 31, ADR 084): Ann saves a search from its results; Ben, a mile
// away, starts listing what she looks for and his form says a neighbour nearby wants it; once he lists
// it, the server's own minute job `listing-alerts` tells Ann (the nearest, so in the first wave), and
// her bell hears it live, without a reload. Desktop and phone.

/** The job runs at each minute's start (ADR 066): one period, its run and the live event, with margin. */
const ONE_JOB_PERIOD = 120_000;

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

test('a saved search: the lister sees a neighbour wants it, and the searcher hears of the new listing live @phone', async ({
  twoMembers,
}) => {
  test.setTimeout(240_000);
  const [{ page: ann }, { page: ben }] = await twoMembers(...annAndBen());

  // --- Ann searches, and saves the search under a name of her own. ---
  // The results page reads everything near (ADR 089), so the search is saved for Everything.
  await ann.goto('/search?q=espresso');
  await expect(ann.getByRole('heading', { level: 1, name: 'Results for “espresso”' })).toBeVisible();
  await ann.getByRole('button', { name: 'Save search' }).click();
  const dialog = ann.getByRole('dialog', { name: 'Save this search' });
  await expect(dialog.getByLabel('Name')).toHaveValue('espresso');
  await dialog.getByLabel('Name').fill('Espresso machines');
  await expectAccessible(ann);
  await dialog.getByRole('button', { name: 'Save search' }).click();
  await expect(dialog).toBeHidden();

  // Her Account tab lists it, with what it looks for and how far.
  await ann.goto('/profile?tab=account');
  const saved = ann.getByRole('listitem').filter({ hasText: 'Espresso machines' });
  await expect(saved).toContainText('"espresso" within 25 miles');
  await expect(ann.getByRole('button', { name: 'Remove saved search Espresso machines' })).toBeVisible();
  await expectAccessible(ann);
  await expectFitsPhone(ann);

  // --- Ben starts listing an espresso machine: the form says a neighbour nearby wants it. ---
  await ben.goto('/profile?tab=items');
  await ben.getByRole('button', { name: 'Add Item' }).last().click();
  const form = ben.getByRole('dialog', { name: 'Add New Item' });
  await form.getByLabel('Title').fill('Espresso machine');
  await form.getByLabel('Category').selectOption('appliances');
  await expect(form.getByText(/^1 neighbour within \d+ miles? wants this$/)).toBeVisible();
  await expectAccessible(ben);
  await form.getByLabel('Description').fill('Makes two cups at once; descaled last month.');
  await form.getByRole('button', { name: 'Add Item' }).click();
  await expect(form).toBeHidden();

  // --- Ann, on the home page, hears of it on her bell without a reload. ---
  await ann.goto('/');
  await expect(bellOf(ann)).toHaveAccessibleName(/^Notifications, \d+ unread$/, { timeout: ONE_JOB_PERIOD });
  await bellOf(ann).click();
  const entry = ann.getByRole('menuitem', { name: /^Unread: New listing matching Espresso machines/ });
  await expect(entry).toBeVisible();
  await expect(entry).toHaveAttribute('href', /^\/items\/\d+$/);
  await expectAccessible(ann);
  await entry.click();
  await expect(ann).toHaveURL(/\/items\/\d+$/);
  await expect(ann.getByRole('heading', { name: 'Espresso machine' }).first()).toBeVisible();
});
