import { PROFILE_MESSAGES } from '#common/schemas/profile.ts';
import { expect, expectAccessible, type Page, type SignUp, test, toasts, uniqueEmail } from './fixtures';

const PORTLAND_OREGON = 'Portland, Oregon, United States';
const PORTLAND_MAINE = 'Portland, Maine, United States';

/** A new member, signed up through the API (signing in is not what these journeys test), on the profile screen. */
async function openProfileAsNewMember(page: Page, signUp: SignUp, firstName: string) {
  const email = uniqueEmail(firstName.toLowerCase());
  await signUp({ firstName, lastName: 'Tester', email, password: 'maple lantern 42' });
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: `${firstName} Tester` })).toBeVisible();
}

function profileForm(page: Page) {
  return {
    location: page.getByRole('combobox', { name: 'Location' }),
    distance: page.getByLabel('Max Travel Distance (miles)'),
    submit: page.getByRole('button', { name: 'Update Profile' }),
  };
}

test.describe('profile', () => {
  test('type "Portl", choose Portland, Oregon, save 30 miles, and the header shows it', {
    tag: '@phone',
  }, async ({ gatedPage: page, signUp, isMobile }) => {
    await openProfileAsNewMember(page, signUp, 'Paula');
    const header = page.getByRole('banner');
    const profileHeader = page.getByRole('main');
    if (!isMobile) await expect(header.getByRole('link', { name: 'Set location' })).toBeVisible();
    await expect(profileHeader.getByText('No location set')).toBeVisible();
    await expect(profileHeader.getByText('New trader')).toBeVisible();
    await expect(profileHeader.getByText('Trusted Trader')).toHaveCount(0);
    await expectAccessible(page);

    const form = profileForm(page);
    await expect(form.distance).toHaveValue('25');
    await form.location.pressSequentially('Portl');
    await expect(page.getByRole('option', { name: PORTLAND_OREGON })).toBeVisible();
    await expect(page.getByRole('option', { name: PORTLAND_MAINE })).toBeVisible();
    await expect(form.location).toHaveAttribute('aria-expanded', 'true');
    await expectAccessible(page);

    await page.getByRole('option', { name: PORTLAND_OREGON }).click();
    await expect(form.location).toHaveValue(PORTLAND_OREGON);
    await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(0);
    await form.distance.fill('30');
    await form.submit.click();
    await expect(toasts(page).getByText('Success')).toBeVisible();
    await expect(toasts(page).getByText('Your profile has been updated.')).toBeVisible();

    // The current user is refetched: the header (hidden on phones) and the profile header show it.
    if (!isMobile) await expect(header.getByRole('link', { name: PORTLAND_OREGON })).toBeVisible();
    await expect(profileHeader.getByText(PORTLAND_OREGON)).toBeVisible();

    // Saved on the server, not just in the page.
    await page.reload();
    await expect(form.location).toHaveValue(PORTLAND_OREGON);
    await expect(form.distance).toHaveValue('30');
  });

  test('the keyboard chooses a suggestion; gibberish finds nothing; 0 and 101 miles are refused', async ({
    gatedPage: page,
    signUp,
  }) => {
    await openProfileAsNewMember(page, signUp, 'Kira');
    const form = profileForm(page);

    await form.location.pressSequentially('Portl');
    await expect(page.getByRole('option', { name: PORTLAND_MAINE })).toBeVisible();
    await form.location.press('ArrowDown');
    await form.location.press('ArrowDown');
    await expect(page.getByRole('option', { name: PORTLAND_MAINE })).toHaveAttribute('aria-selected', 'true');
    await form.location.press('Enter');
    await expect(form.location).toHaveValue(PORTLAND_MAINE);
    await expect(form.location).toHaveAttribute('aria-expanded', 'false');

    await form.location.fill('');
    await form.location.pressSequentially('xqzzvq');
    await expect(page.getByText('No locations found.')).toBeVisible();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(0);
    await form.location.press('Escape');
    await expect(page.getByText('No locations found.')).toBeHidden();

    for (const miles of ['0', '101']) {
      await form.distance.fill(miles);
      await form.submit.click();
      await expect(page.getByText(PROFILE_MESSAGES.travelDistanceRange)).toBeVisible();
      await expect(form.distance).toHaveAttribute('aria-invalid', 'true');
    }
    await expectAccessible(page);
    await expect(toasts(page).getByText('Success')).toHaveCount(0);
  });

  test('use current location names the neighborhood and keeps the street-level point', async ({
    gatedPage: page,
    signUp,
    context,
  }) => {
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 45.5152, longitude: -122.6784 });
    await openProfileAsNewMember(page, signUp, 'Gale');
    const form = profileForm(page);
    await page.getByRole('button', { name: 'Use current location' }).click();
    const downtown = 'Downtown, Portland, Oregon, United States';
    await expect(form.location).toHaveValue(downtown);
    await form.submit.click();
    await expect(toasts(page).getByText('Success')).toBeVisible();
    await expect(page.getByRole('main').getByText(downtown)).toBeVisible();
    // The browser's point is saved, not the neighborhood's (or the town's) centre.
    const me = await (await page.request.get('/api/auth/user')).json();
    expect(me).toMatchObject({ location: downtown, latitude: 45.5152, longitude: -122.6784 });
  });

  test('the Trade History tab shows its stats and empty state', async ({ gatedPage: page, signUp }) => {
    await openProfileAsNewMember(page, signUp, 'Theo');
    await page.getByRole('tab', { name: 'Trade History' }).click();
    await expect(page).toHaveURL(/\/profile\?tab=trades$/);
    const panel = page.getByRole('tabpanel', { name: 'Trade History' });
    await expect(panel.getByText('No completed trades yet')).toBeVisible();
    await expect(panel.getByText('Total Trades')).toBeVisible();
    await expect(panel.getByText('N/A')).toBeVisible();
    await expect(panel.getByText('This Month')).toBeVisible();
    await expectAccessible(page);
  });
});
