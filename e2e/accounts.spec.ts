import { createMember, expect, expectAccessible, test, toasts, uniqueEmail } from './fixtures';

test.describe('accounts', () => {
  test('register: every validation message where the spec puts it, then signed in with the header menu', {
    tag: '@phone',
  }, async ({ gatedPage: page, isMobile }) => {
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Join Barterhood' })).toBeVisible();
    await expect(page.getByText('Create your account to start bartering with neighbors')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('First name is required')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page.getByLabel('First Name')).toHaveAttribute('aria-invalid', 'true');

    const email = uniqueEmail('rosa');
    await page.getByLabel('First Name').fill('Rosa');
    await page.getByLabel('Last Name').fill('Parks-Lee');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('maple lantern 42');
    await page.getByLabel('Confirm Password').fill('secret124');
    await page.getByRole('button', { name: 'Create Account' }).click();
    const mismatch = page.getByText("Passwords don't match");
    await expect(mismatch).toBeVisible();
    // The message sits on the confirm field.
    await expect(page.getByLabel('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Password', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');

    // The password toggle shows and hides the text.
    const toggle = page.getByRole('button', { name: 'Show password' }).first();
    await toggle.click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).first().click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');

    await page.getByLabel('Confirm Password').fill('maple lantern 42');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toasts(page).getByText('Your account has been created successfully.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Rosa!' })).toBeVisible();

    // The signed-in header: location hint, bell and messages, avatar initials, menu with name and e-mail.
    const header = page.getByRole('banner');
    if (!isMobile) {
      await expect(header.getByRole('link', { name: 'Set location' })).toBeVisible();
      await expect(header.getByPlaceholder('Search items or services...')).toBeVisible();
    }
    await expect(header.getByRole('button', { name: 'Notifications' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Account menu' })).toHaveText('RP');
    await expectAccessible(page);
    await header.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await expect(menu.getByText('Rosa Parks-Lee')).toBeVisible();
    await expect(menu.getByText(email)).toBeVisible();
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);

    if (isMobile) {
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const entry of ['Home', 'Search', 'Add', 'Messages', 'Profile']) {
        await expect(nav.getByText(entry, { exact: true })).toBeVisible();
      }
      await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
      await nav.getByRole('link', { name: 'Home' }).click();
      await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    }

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  });

  test('sign in with e-mail and password', async ({ gatedPage: page, baseURL }) => {
    const email = uniqueEmail('sam');
    await createMember(baseURL ?? '', {
      firstName: 'Sam',
      lastName: 'Ortiz',
      email,
      password: 'quiet harbor 77',
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByText('Sign in to your account')).toBeVisible();
    await expect(page.getByText('Join neighbors already trading locally')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill('quiet harbor 77');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toasts(page).getByText("You've successfully logged in.")).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Sam!' })).toBeVisible();
  });

  test('an unknown e-mail leads to registration with the e-mail prefilled', async ({
    gatedPage: page,
    consoleErrors,
  }) => {
    consoleErrors.allow(/status of 401 .*\/api\/auth\/login/);
    const email = uniqueEmail('newcomer');
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('whatever1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(toasts(page).getByText('Account Not Found')).toBeVisible();
    await expect(toasts(page).getByText("Let's create your account with this email address")).toBeVisible();
    await expect(page).toHaveURL(
      new RegExp(`/register\\?email=${encodeURIComponent(email).replace(/\./g, '\\.')}`),
    );
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the new-user box leads to registration', async ({ gatedPage: page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create Your Account' }).click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('demo login refuses a blank name and admits a real one', async ({ gatedPage: page }) => {
    await page.goto('/demo-login');
    await expect(page.getByText('Enter your name to start exploring the bartering platform')).toBeVisible();
    await expect(page.getByText(/demo login for testing/i)).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Your Name').fill('   ');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(toasts(page).getByText('Name Required')).toBeVisible();
    await expect(toasts(page).getByText('Please enter your name to continue')).toBeVisible();

    const name = `Dana Demo ${Date.now().toString(36)}`;
    await page.getByLabel('Your Name').fill(name);
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toasts(page).getByText('You can now start exploring the bartering features.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome, Dana!' })).toBeVisible();
  });

  test('Google sign-in completes against the local provider', async ({ gatedPage: page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Or continue with Google' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome, Gina!' })).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await expect(page.getByRole('menu').getByText('gina.google@example.com')).toBeVisible();
  });

  test('a member page visited signed out leads to the login screen, and back there after signing in', async ({
    gatedPage: page,
    baseURL,
  }) => {
    const email = uniqueEmail('theo');
    await createMember(baseURL ?? '', { firstName: 'Theo', email, password: 'quiet harbor 77' });
    await page.goto('/profile?tab=trades');
    await expect(page).toHaveURL(/\/login\?next=%2Fprofile%3Ftab%3Dtrades$/);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('quiet harbor 77');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/profile\?tab=trades$/);
    await expect(page.getByRole('tab', { name: 'Trade History' })).toHaveAttribute('aria-selected', 'true');
  });

  test('a login link that points off the site signs in to the home page', async ({
    gatedPage: page,
    baseURL,
  }) => {
    const email = uniqueEmail('ivy');
    await createMember(baseURL ?? '', { firstName: 'Ivy', email, password: 'quiet harbor 77' });
    await page.goto('/login?next=%2F%2Fevil.example%2Fprofile');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('quiet harbor 77');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Ivy!' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? '').origin);
  });
});
