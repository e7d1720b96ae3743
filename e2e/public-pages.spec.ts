import { expect, expectAccessible, test } from './fixtures';

test.describe('signed-out pages', () => {
  test('landing page: header, hero, explainer, mission, footer and banner', { tag: '@phone' }, async ({
    gatedPage: page,
    isMobile,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible();
    for (const step of ['Create Your Profile', 'Smart Matching', 'Local Trading']) {
      await expect(page.getByRole('heading', { name: step })).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();

    const banner = page.getByRole('complementary', { name: 'Early user notice' });
    await expect(banner.getByRole('link', { name: 'support@barterhood.example' })).toHaveAttribute(
      'href',
      'mailto:support@barterhood.example',
    );
    await expect(banner.getByRole('link', { name: 'print a flyer' })).toHaveAttribute('href', '/flyer');

    // Header and hero both offer Google sign-in; phones hide the header's.
    const google = page.getByRole('link', { name: 'Sign In with Google' });
    await expect(google).toHaveCount(isMobile ? 1 : 2);
    for (const link of await google.all()) await expect(link).toHaveAttribute('href', '/api/auth/google');

    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    await expect(footer.getByText('Privacy Policy')).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveCount(0);
    await expect(footer.getByRole('link', { name: 'Contact' })).toHaveCount(0);
    await expectAccessible(page);

    // Get Started Now leads to registration (issue 17); the demo stays a link away on the login screen.
    await page.getByRole('link', { name: 'Get Started Now' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('heading', { name: 'Join Barterhood' })).toBeVisible();

    await page.goto('/');
    await page.getByRole('link', { name: 'Sign In or Create an Account' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await page.getByRole('link', { name: 'Try the demo' }).click();
    await expect(page).toHaveURL(/\/demo-login$/);
    await expect(page.getByText('Enter your name to start exploring the bartering platform')).toBeVisible();

    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Sign In', exact: true })
      .click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('terms of service: ten sections, today as last updated, contacts from settings', async ({
    gatedPage: page,
  }) => {
    await page.goto('/');
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
    await expect(page.getByText(/trademarks of Barterhood/)).toBeVisible();
    const sections = page.getByRole('heading', { level: 2 });
    await expect(sections).toHaveCount(10);
    for (const [index, title] of [
      'Acceptance',
      'Service Description',
      'Intellectual Property',
      'User Conduct and Prohibited Uses',
      'Content Moderation and Platform Purpose',
      'Patent and Trade Secret',
      'DMCA',
      'Limitation of Liability',
      'Governing Law',
      'Contact Information',
    ].entries()) {
      await expect(sections.nth(index)).toContainText(`${index + 1}. ${title}`);
    }
    await expect(page.getByRole('link', { name: 'legal@barterhood.example' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'licensing@barterhood.example' })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the accessibility statement: the standard, how it is tested, known gaps, the support address', async ({
    gatedPage: page,
  }) => {
    await page.goto('/');
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Accessibility' })
      .click();
    await expect(page).toHaveURL(/\/accessibility$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Accessibility' })).toBeVisible();
    await expect(page.getByText(/WCAG\) 2\.2 at level AA/)).toBeVisible();
    for (const heading of ['The standard we aim at', 'How we test', 'Known gaps', 'Tell us'])
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    await expect(page.getByRole('link', { name: /^support@/ })).toHaveAttribute('href', /^mailto:support@/);
    await expectAccessible(page);
  });

  test('unknown paths show the 404 page', async ({ gatedPage: page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200); // the SPA answers and its router shows the 404
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible();
  });

  // Phones have no Tab key: the phone project leaves out tests tagged @desktop-only.
  test('the landing page is keyboard reachable @desktop-only', async ({ gatedPage: page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const reached: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(reached).toEqual(
      expect.arrayContaining(['print a flyer', 'Sign In', 'Sign In or Create an Account', 'Get Started Now']),
    );
  });
});
