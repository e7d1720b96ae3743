import { readFileSync } from 'node:fs';
import {
  expect,
  expectAccessible,
  memberApi,
  passGate,
  signInThroughApi,
  test,
  uniqueEmail,
} from './fixtures';

const PASSWORD = 'saffron ladder 29';

test.describe('the member’s own data (ADR 025)', () => {
  test('download my data, delete my account; the other side of a completed trade sees "Former member"', async ({
    gatedPage: page,
    baseURL,
    browser,
  }) => {
    test.setTimeout(60_000);
    const suffix = Math.floor(Math.random() * 1e6);
    const aEmail = uniqueEmail('ada');
    const bEmail = uniqueEmail('ben');
    const a = await memberApi(baseURL ?? '', {
      firstName: 'Ada',
      lastName: 'Leaving',
      email: aEmail,
      password: PASSWORD,
    });
    const b = await memberApi(baseURL ?? '', {
      firstName: 'Ben',
      lastName: 'Staying',
      email: bEmail,
      password: PASSWORD,
    });
    try {
      const item = async (api: typeof a, title: string) => {
        const response = await api.post('/api/items', {
          data: { title, description: 'Good as new.', category: 'tools' },
        });
        expect(response.status()).toBe(201);
        return ((await response.json()) as { id: number }).id;
      };
      const adasItem = await item(a, `Ada's sander ${suffix}`);
      const bensItem = await item(b, `Ben's ladder ${suffix}`);
      const proposed = await a.post('/api/barter-requests', {
        data: { offeredItemIds: [adasItem], requestedItemIds: [bensItem] },
      });
      expect(proposed.status(), await proposed.text()).toBe(201);
      const barterId = ((await proposed.json()) as { id: number }).id;
      expect((await b.post(`/api/barter-requests/${barterId}/accept`)).status()).toBe(200);
      expect((await a.post(`/api/barter-requests/${barterId}/confirm`)).status()).toBe(200);
      expect((await b.post(`/api/barter-requests/${barterId}/confirm`)).status()).toBe(200);

      await signInThroughApi(page, { email: aEmail, password: PASSWORD });
      await page.goto('/profile?tab=account');
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download my data' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^barterhood-data-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')) as {
        account: { email: string };
        barters: Array<{ id: number; status: string }>;
      };
      expect(data.account.email).toBe(aEmail);
      expect(data.barters).toContainEqual(expect.objectContaining({ id: barterId, status: 'completed' }));

      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await expectAccessible(page);
      await dialog.getByLabel('Your password').fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Delete my account' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible();
      expect((await page.request.get('/api/auth/user')).status()).toBe(401);

      // Ben's history keeps the trade, with a former member on the other side.
      const bContext = await browser.newContext({ baseURL });
      const bPage = await bContext.newPage();
      await passGate(bPage);
      await signInThroughApi(bPage, { email: bEmail, password: PASSWORD });
      await bPage.goto('/profile?tab=trades');
      await expect(bPage.getByText('Traded with Former member')).toBeVisible();
      await expect(bPage.getByText(`Ben's ladder ${suffix}`)).toBeVisible();
      await bContext.close();
    } finally {
      await a.dispose();
      await b.dispose();
    }
  });
});
