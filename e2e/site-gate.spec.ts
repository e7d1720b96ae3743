import { expect, expectAccessible, test, toasts } from './fixtures';

test.describe('site password gate', () => {
  test('wrong then right password, remembered after reload', { tag: '@phone' }, async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/');
    const field = page.getByLabel('Site password');
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('type', 'password');
    const enter = page.getByRole('button', { name: 'Enter Site' });
    await expect(enter).toBeDisabled();
    await expectAccessible(page);

    // A wrong password: toast, cleared field. The browser logs the 401 of this attempt.
    consoleErrors.allow(/status of 401 .*\/api\/verify-password/);
    await field.fill('wrong-password');
    await expect(enter).toBeEnabled();
    await enter.click();
    await expect(toasts(page).getByText('Access Denied')).toBeVisible();
    await expect(toasts(page).getByText('Incorrect password. Please try again.')).toBeVisible();
    await expect(field).toHaveValue('');

    await field.fill('barter');
    await field.press('Enter');
    await expect(page.getByRole('heading', { name: /Trade with your neighbors/ })).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('site-access'))).toBe('granted');

    await page.reload();
    await expect(page.getByRole('heading', { name: /Trade with your neighbors/ })).toBeVisible();
    await expect(page.getByLabel('Site password')).toHaveCount(0);
  });

  test('a network failure says so', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/ERR_FAILED .*\/api\/verify-password/);
    await page.goto('/');
    await page.route('**/api/verify-password', (route) => route.abort('failed'));
    await page.getByLabel('Site password').fill('barter');
    await page.getByRole('button', { name: 'Enter Site' }).click();
    await expect(toasts(page).getByText('Error', { exact: true })).toBeVisible();
    await expect(toasts(page).getByText('Unable to verify password. Please try again.')).toBeVisible();
  });

  test('the API refuses calls without the gate cookie', async ({ page }) => {
    const response = await page.request.get('/api/site');
    expect(response.status()).toBe(403);
    expect(await response.json()).toEqual({ message: expect.any(String), code: 'GATE_CLOSED' });
  });

  test('a stale local flag without the cookie shows the gate again', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 403/); // the refused calls are logged by the browser
    await page.addInitScript(() => window.localStorage.setItem('site-access', 'granted'));
    await page.goto('/terms');
    await expect(page.getByLabel('Site password')).toBeVisible();
  });
});
