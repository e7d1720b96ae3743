import { expect, expectAccessible, memberApi, signInThroughApi, test, uniqueEmail } from './fixtures';

test.describe('member page', () => {
  test('from a feed card to the owner’s page: who they are, their items, wants and ratings; by keyboard too', async ({
    gatedPage: page,
    baseURL,
    consoleErrors,
  }) => {
    test.setTimeout(90_000);
    // Downtown Portland, Oregon, give or take a mile: the page names the town nearest the owner's
    // public point, which is somewhere in the metro area.
    const near = () => ({
      latitude: 45.52 + (Math.random() - 0.5) * 0.03,
      longitude: -122.68 + (Math.random() - 0.5) * 0.03,
    });
    const password = 'maple lantern 42';
    const viewerEmail = uniqueEmail('member-viewer');
    const run = Date.now().toString(36);
    const itemTitle = `Banjo ${run}`;
    const viewer = await memberApi(
      baseURL ?? '',
      { firstName: 'Vic', lastName: 'Viewer', email: viewerEmail, password },
      { location: 'Portland, Oregon, United States', ...near() },
    );
    const owner = await memberApi(
      baseURL ?? '',
      { firstName: 'Olga', lastName: 'Owen', email: uniqueEmail('member-owner'), password },
      { location: '1200 SW Park Avenue, Portland', ...near() },
    );
    try {
      const post = async (path: string, data: Record<string, unknown>) => {
        const response = await owner.post(path, { data });
        expect(response.status(), await response.text()).toBe(201);
      };
      await post('/api/items', {
        title: itemTitle,
        description: 'Five strings, soft case.',
        category: 'music instr',
      });
      await post('/api/wants', { title: `Ukulele ${run}`, category: 'music instr' });
      // Her name as others see it: "Olga O.", or a letter more when an earlier Olga O. lives near
      // (ADR 058: the desktop and phone runs of this journey share one database).
      const ownerId = ((await (await owner.get('/api/auth/user')).json()) as { id: string }).id;
      const olga = ((await (await viewer.get(`/api/members/${ownerId}`)).json()) as { displayName: string })
        .displayName;
      expect(olga).toMatch(/^Olga O/);

      // Signing in is not what this journey tests: through the API, as the form would (e2e/fixtures.ts).
      await signInThroughApi(page, { email: viewerEmail, password });
      await page.goto('/');
      await page.getByRole('tab', { name: 'Everything' }).click();
      const banjo = page.getByRole('article', { name: itemTitle });
      await expect(banjo).toBeVisible();

      // The owner's name is a link of its own: it opens their page, not the item.
      await banjo.getByRole('link', { name: olga }).click();
      await expect(page).toHaveURL(/\/members\/[0-9a-f-]{36}$/);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1, name: olga })).toBeVisible();
      await expect(main.getByText(/^Near .+, Oregon, United States$/)).toBeVisible();
      await expect(main.getByText(/^Member since \w+ \d{4}$/)).toBeVisible();
      await expect(main.getByText('New trader').first()).toBeVisible();
      await expect(main.getByText('0 completed trades')).toBeVisible();
      // Never the street address they saved.
      await expect(main.getByText('1200 SW Park Avenue')).toHaveCount(0);
      await expect(main.getByRole('heading', { name: 'Items offered (1)' })).toBeVisible();
      await expect(main.getByRole('article', { name: itemTitle })).toBeVisible();
      await expect(
        main.getByRole('region', { name: 'Looking for' }).getByText(`Ukulele ${run}`),
      ).toBeVisible();
      await expect(main.getByRole('heading', { name: 'Ratings (0)' })).toBeVisible();
      await expect(main.getByText(`${olga} has not been rated yet.`)).toBeVisible();
      await expectAccessible(page);

      // By keyboard: the item's detail opens from its title, and the owner's name in it leads to
      // their page (this one), closing the dialog.
      const title = main.getByRole('button', { name: itemTitle, exact: true });
      await title.focus();
      await page.keyboard.press('Enter');
      const detail = page.getByRole('dialog', { name: itemTitle });
      await expect(detail.getByText('Five strings, soft case.')).toBeVisible();
      await expectAccessible(page);
      const ownerLink = detail.getByRole('link', { name: olga });
      await ownerLink.focus();
      await expect(ownerLink).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(main.getByRole('heading', { level: 1, name: olga })).toBeVisible();

      // From the feed again, the name is reached and followed with the keyboard alone.
      await page.goto('/');
      await page.getByRole('tab', { name: 'Everything' }).click();
      const cardLink = page.getByRole('article', { name: itemTitle }).getByRole('link', { name: olga });
      await cardLink.focus();
      await expect(cardLink).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1, name: olga })).toBeVisible();

      // An unknown member.
      consoleErrors.allow(/\/api\/members\//);
      await page.goto('/members/00000000-0000-4000-8000-000000000000');
      await expect(page.getByRole('heading', { level: 1, name: 'Member not found' })).toBeVisible();
      await expectAccessible(page);
    } finally {
      await viewer.dispose();
      await owner.dispose();
    }
  });
});
