import sharp from 'sharp';
import { unsubscribeToken } from '#server/features/notifications/index.ts';
import { expect, expectAccessible, mailTo, memberApi, signIn, test, toasts, uniqueEmail } from './fixtures';
import { E2E_SESSION_SECRET } from './support/moderator';

const PASSWORD = 'willow kettle 47';
const NEW_PASSWORD = 'copper meadow 81';

test.describe('account care (ADR 024)', () => {
  test('a forgotten password: Login Failed, the mailed link, a new password, the old session gone', async ({
    gatedPage: page,
    baseURL,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 401 .*\/api\/auth\/login/);
    consoleErrors.allow(/status of 400 .*\/api\/auth\/password-reset\/confirm/);
    const email = uniqueEmail('fern');
    // The member's other device: signed in since registering.
    const otherDevice = await memberApi(baseURL ?? '', { firstName: 'Fern', email, password: PASSWORD });
    try {
      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not my password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      // A wrong password is a failed sign-in, never "Account Not Found" and a trip to registration.
      await expect(toasts(page).getByText('Login Failed')).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);

      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await expect(page).toHaveURL(/\/forgot-password\?email=/);
      await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
      await expect(page.getByLabel('Email')).toHaveValue(email);
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await expect(
        page.getByText('If an account uses this email address, we have sent it a link'),
      ).toBeVisible();

      const mail = await mailTo(email, /new Barterhood password/);
      const link = mail.links.find((href) => href.includes('/reset-password?token=')) ?? '';
      expect(link.startsWith(`${baseURL}/reset-password?token=`)).toBe(true);
      await page.goto(link);
      await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
      await expectAccessible(page);
      await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Confirm New Password').fill('something else');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await expect(page.getByText("Passwords don't match")).toBeVisible();
      await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Set New Password' }).click();
      // Signed in at home (the toast saying so may give way to the feed's safety tip: issue 17).
      await expect(page.getByRole('heading', { name: 'Welcome, Fern!' })).toBeVisible();

      // The other device was signed out when the password changed.
      expect((await otherDevice.get('/api/auth/user')).status()).toBe(401);
      // The link worked once.
      await page.goto(link);
      await page.getByLabel('New Password', { exact: true }).fill('yet another password 9');
      await page.getByLabel('Confirm New Password').fill('yet another password 9');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await expect(page.getByText('This link has expired or was already used.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Send a New Link' })).toBeVisible();
    } finally {
      await otherDevice.dispose();
    }
  });

  test('confirming the address, the Account tab, and signing out another device', async ({
    gatedPage: page,
    baseURL,
    consoleErrors,
  }) => {
    // A long journey: the address, the Account tab, emails, a profile photo through the screening
    // model and the sessions.
    test.setTimeout(90_000);
    consoleErrors.allow(/status of 400 .*\/api\/account\/password/);
    const email = uniqueEmail('hugo');
    const otherDevice = await memberApi(baseURL ?? '', { firstName: 'Hugo', email, password: PASSWORD });
    try {
      await signIn(page, email, PASSWORD);
      const banner = page.getByRole('region', { name: 'Confirm your email' });
      await expect(banner).toContainText(email);
      await expectAccessible(page);

      const mail = await mailTo(email, /Confirm your Barterhood email address/);
      const link = mail.links.find((href) => href.includes('/verify-email?token=')) ?? '';
      await page.goto(link);
      await expect(page.getByText('is confirmed as your email address')).toBeVisible();
      await page.getByRole('link', { name: 'Go to Barterhood' }).click();
      await expect(page.getByRole('heading', { name: 'Welcome, Hugo!' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Confirm your email' })).toHaveCount(0);

      await page.goto('/profile?tab=account');
      await expect(page.getByRole('tab', { name: 'Account' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByText('Verified', { exact: true })).toBeVisible();
      const sessions = page.getByRole('list', { name: 'Sessions' });
      await expect(sessions.getByRole('listitem')).toHaveCount(2);
      await expect(sessions.getByText('This device')).toBeVisible();
      await expectAccessible(page);

      // Email notifications: a digest's unsubscribe link, then the group's choice in the Account tab
      // (ADR 090: one channel per group, Push, Email digest or None).
      const me = (await (await page.request.get('/api/auth/user')).json()) as { id: string };
      const token = unsubscribeToken(E2E_SESSION_SECRET, me.id, 'messages');
      await page.goto(`/unsubscribe?u=${me.id}&k=messages&t=${token}`);
      await expect(page.getByText('Stop emails about new messages?')).toBeVisible();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      await expect(page.getByText('You will get no more emails about new messages.')).toBeVisible();
      await page.goto('/profile?tab=account');
      const messages = page.getByRole('group', { name: 'New messages' });
      await expect(messages.getByRole('radio', { name: 'None' })).toBeChecked();
      // Hugo has no push device: proposals still come by the digest, as before.
      await expect(
        page
          .getByRole('group', {
            name: 'New proposals, counter-offers, hand-over reminders and no-show reports',
          })
          .getByRole('radio', { name: 'Email digest' }),
      ).toBeChecked();
      // The choice shows at once and is saved as it is made: the save's answer, then a reload.
      const saved = page.waitForResponse(
        (response) =>
          response.url().endsWith('/api/account/notification-channels') &&
          response.request().method() === 'PUT',
      );
      await messages.getByRole('radio', { name: 'Email digest' }).check();
      await expect(messages.getByRole('radio', { name: 'Email digest' })).toBeChecked();
      expect((await saved).status()).toBe(200);
      // Saved on the server: still chosen after a reload.
      await page.reload();
      await expect(
        page.getByRole('group', { name: 'New messages' }).getByRole('radio', { name: 'Email digest' }),
      ).toBeChecked();

      // A profile photo through the photo pipeline, and a few words about yourself, on your page.
      await page.goto('/profile');
      await page.getByLabel('Choose a profile photo').setInputFiles({
        name: 'me.jpg',
        mimeType: 'image/jpeg',
        buffer: await sharp({ create: { width: 400, height: 400, channels: 3, background: '#2a7' } })
          .jpeg()
          .toBuffer(),
      });
      // The first photo a server screens loads the screening model (seconds on a busy machine).
      await expect(page.getByRole('button', { name: 'Remove Photo' })).toBeVisible({ timeout: 30_000 });
      await page.getByLabel('About you').fill('I fix bikes and bake sourdough.');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(toasts(page).getByText('Your page shows your new words.')).toBeVisible();
      await page.goto(`/members/${me.id}`);
      await expect(page.getByText('I fix bikes and bake sourdough.')).toBeVisible();
      await page.goto('/profile?tab=account');

      // A wrong current password is answered under its field.
      await page.getByLabel('Current Password').last().fill('not it at all');
      await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await expect(page.getByText('Your current password is not correct.')).toBeVisible();

      // The other device, signed out from here.
      await sessions.getByRole('button', { name: /^Sign out / }).click();
      await expect(toasts(page).getByText('Signed out', { exact: true })).toBeVisible();
      await expect(sessions.getByRole('listitem')).toHaveCount(1);
      expect((await otherDevice.get('/api/auth/user')).status()).toBe(401);

      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible();
      expect((await page.request.get('/api/auth/user')).status()).toBe(401);
    } finally {
      await otherDevice.dispose();
    }
  });
});
