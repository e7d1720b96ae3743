import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  acceptedBarter,
  expect,
  expectAccessible,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  passGate,
  signIn,
  test,
  toasts,
  uniqueEmail,
} from './fixtures';

/**
 * Waits until a service worker controls the page (ADR 034: it claims the page it installs from). It
 * registers once the page has settled, five seconds after the app's start (ADR 109), then installs.
 */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, {
    timeout: 30_000,
  });
}

const PASSWORD = 'harbor lantern 42';

/** A member at a spot of their own and Ned, a neighbor a mile north, both signed in through the API. */
async function memberAndNeighbor(baseURL: string, firstName: string, lastName: string) {
  const origin = ownSpot();
  const email = uniqueEmail(lastName.toLowerCase());
  const member = await memberApi(
    baseURL,
    { firstName, lastName, email, password: PASSWORD },
    { location: 'Testville', ...origin },
  );
  const neighbor = await memberApi(
    baseURL,
    { firstName: 'Ned', lastName: 'Neighbor', email: uniqueEmail('near'), password: PASSWORD },
    { location: 'Testville North', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
  );
  return { email, password: PASSWORD, member, neighbor };
}

test.describe('the installable app, offline', () => {
  // The other journeys block the service worker (playwright.config.ts); these are about it.
  test.use({ serviceWorkers: 'allow' });

  test('installable; the last-seen feed and barters open offline with a banner; actions are refused', {
    tag: '@phone',
  }, async ({ gatedPage: page, context, baseURL, consoleErrors }) => {
    test.setTimeout(90_000);
    // Offline, the browser logs every read it cannot make (the live events, reads never cached).
    consoleErrors.allow(/ERR_INTERNET_DISCONNECTED/);

    // The manifest meets the installability criteria: names, start URL, standalone, colors, and
    // 192 and 512 px icons, maskable ones among them, each served as a PNG.
    const manifestResponse = await page.request.get('/manifest.webmanifest');
    expect(manifestResponse.status()).toBe(200);
    expect(manifestResponse.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await manifestResponse.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({
      name: 'Barterhood',
      short_name: 'Barterhood',
      start_url: '/',
      display: 'standalone',
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
      background_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    for (const size of ['192x192', '512x512']) {
      for (const purpose of ['any', 'maskable']) {
        const icon = manifest.icons.find(
          (entry) => entry.sizes === size && (entry.purpose ?? 'any') === purpose,
        );
        expect(icon, `${purpose} icon ${size}`).toBeDefined();
        const image = await page.request.get(icon?.src ?? '');
        expect(image.headers()['content-type'], icon?.src).toBe('image/png');
      }
    }
    const worker = await page.request.get('/sw.js');
    expect(worker.headers()['cache-control']).toBe('no-cache');

    // A neighbor a mile away offers what our member wants: the match feed shows it.
    const { email, password, member, neighbor } = await memberAndNeighbor(baseURL ?? '', 'Olive', 'Offline');
    try {
      const post = async (api: typeof member, path: string, data: Record<string, unknown>) => {
        const response = await api.post(path, { data });
        expect(response.status(), await response.text()).toBe(201);
        return (await response.json()) as { id: number };
      };
      await post(member, '/api/wants', { title: 'kayak', category: 'boats' });
      const item = await post(neighbor, '/api/items', {
        title: 'Sea kayak with paddle',
        description: 'Yellow, 14 feet, with a spray skirt.',
        category: 'boats',
      });
      // A barter between them, with a message, so the Barters screen and the conversation have content.
      const mine = await post(member, '/api/items', {
        title: 'Camping stove',
        description: 'Two burners, with a gas canister.',
        category: 'sporting',
      });
      const barter = await post(member, '/api/barter-requests', {
        offeredItemIds: [mine.id],
        requestedItemIds: [item.id],
        message: 'Would you swap the kayak for my stove?',
      });

      // The first visit installs the service worker, which takes control of the page at once.
      await page.goto('/');
      await waitForServiceWorker(page);
      await signIn(page, email, password);
      const card = page.getByRole('article', { name: 'Sea kayak with paddle' });
      await expect(card).toBeVisible();
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
      // The page links the manifest once it has settled (ADR 109), and Chromium's own verdict: the
      // manifest parses and nothing stands in the way of installing.
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
      const cdp = await context.newCDPSession(page);
      const { errors: manifestErrors } = (await cdp.send('Page.getAppManifest')) as {
        errors: Array<{ message: string; critical: number }>;
      };
      expect(manifestErrors).toEqual([]);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: Array<{ errorId: string }>;
      };
      // Playwright's contexts are off the record ("in-incognito"), which no site can change.
      expect(
        installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito'),
      ).toEqual([]);
      await cdp.detach();

      // The barter's page, then the Barters screen (both read online, so both are kept).
      const outgoing = page.getByRole('link', { name: /You give: Camping stove/ });
      await page.goto(`/barters/${barter.id}`);
      await expect(page.getByRole('heading', { name: 'Barter with Ned N.' })).toBeVisible();
      await expect(page.getByText('Would you swap the kayak for my stove?')).toBeVisible();
      await page.goto('/barters?box=outgoing');
      await expect(outgoing).toBeVisible();
      await page.goto('/');
      await expect(card).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toHaveCount(0);

      // Offline, a reload shows the last feed under the offline banner.
      await context.setOffline(true);
      await page.reload();
      // Truly offline, the service worker included: a read it never kept fails.
      expect(
        await page.evaluate(() =>
          fetch('/api/account/sessions').then(
            () => 'answered',
            () => 'failed',
          ),
        ),
      ).toBe('failed');
      const banner = page.getByRole('status').filter({ hasText: /^You are offline\./ });
      await expect(banner).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Welcome, Olive!' })).toBeVisible();
      await expect(card).toBeVisible();
      await expectAccessible(page);

      // An action is refused with the reason, and nothing changes.
      await card.getByRole('button', { name: 'Save Sea kayak with paddle' }).click();
      await expect(toasts(page).getByText('You are offline')).toBeVisible();
      await expect(
        toasts(page).getByText('Nothing was sent. Try again when you are back online.'),
      ).toBeVisible();
      await expect(card.getByRole('button', { name: 'Save Sea kayak with paddle' })).toHaveAttribute(
        'aria-pressed',
        'false',
      );
      await expectAccessible(page);

      // The barter and its conversation open offline too.
      await page.goto(`/barters/${barter.id}`);
      await expect(banner).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Barter with Ned N.' })).toBeVisible();
      await expect(page.getByText('Would you swap the kayak for my stove?')).toBeVisible();
      await page.goto('/barters?box=outgoing');
      await expect(outgoing).toBeVisible();
      await expectAccessible(page);

      // Back online: the banner goes and the action goes through.
      await context.setOffline(false);
      await page.goto('/');
      await expect(banner).toHaveCount(0);
      await card.getByRole('button', { name: 'Save Sea kayak with paddle' }).click();
      await expect(card.getByRole('button', { name: 'Unsave Sea kayak with paddle' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      const saved = await member.get('/api/saved-items');
      expect(((await saved.json()) as Array<{ id: number }>).map((row) => row.id)).toEqual([item.id]);
    } finally {
      await context.setOffline(false);
      await Promise.all([member.dispose(), neighbor.dispose()]);
    }
  });

  test("signing out forgets the member's reads kept for offline use", async ({
    gatedPage: page,
    baseURL,
  }) => {
    const password = 'harbor lantern 42';
    const email = uniqueEmail('leaver');
    const member = await memberApi(baseURL ?? '', { firstName: 'Lee', lastName: 'Leaver', email, password });
    try {
      await page.goto('/');
      await waitForServiceWorker(page);
      await signIn(page, email, password);
      const kept = () =>
        page.evaluate(async () => {
          const cache = await caches.open('barterhood-api');
          return (await cache.keys()).map((request) => new URL(request.url).pathname);
        });
      await expect.poll(kept).toEqual(expect.arrayContaining(['/api/auth/user', '/api/feed/barter-match']));
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /Trade with your neighbors/ })).toBeVisible();
      // Only the site's own settings may stay (the same for everyone); nothing of the member's.
      await expect.poll(kept).not.toEqual(expect.arrayContaining(['/api/auth/user']));
      expect((await kept()).filter((pathname) => pathname !== '/api/site')).toEqual([]);
    } finally {
      await member.dispose();
    }
  });

  test('online, a slow read of a barter the page shows waits for the server, not for the older copy kept offline (ADR 108)', async ({
    gatedPage: page,
    context,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { email, password, member, neighbor } = await memberAndNeighbor(baseURL ?? '', 'Sol', 'Slow');
    try {
      const { barterId } = await acceptedBarter(
        member,
        neighbor,
        { title: 'Camping stove', category: 'sporting' },
        { title: 'Sea kayak', category: 'boats' },
      );
      // The worker controls the page, and keeps the barter's read as the page opens it.
      await page.goto('/');
      await waitForServiceWorker(page);
      await signIn(page, email, password);
      await page.goto(`/barters/${barterId}`);
      const confirm = page.getByRole('button', { name: 'Confirm completed' });
      await expect(confirm).toBeVisible();
      const status = page.locator('#barter-heading').locator('..').getByText('Completed', { exact: true });

      // Sol confirms (from another device): the page reads the barter again, live, and the worker
      // keeps that answer too.
      const mine = await member.post(`/api/barter-requests/${barterId}/confirm`);
      expect(mine.status(), await mine.text()).toBe(200);
      await expect(confirm).toBeHidden();

      // From now on the server answers this barter's reads a second after the worker's wait for a
      // first read (3 s): a slow network, which is what the route plays (the reads it delays are the
      // worker's own, Chromium routes them too).
      let slowReadAnswered!: () => void;
      const answered = new Promise<void>((resolve) => {
        slowReadAnswered = resolve;
      });
      await context.route(`**/api/barter-requests/${barterId}`, async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        const response = await route.fetch();
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        await route.fulfill({ response });
        slowReadAnswered();
      });

      // Ned confirms: the barter is completed, and Sol's page reads it again. Answered with the copy
      // the worker kept (accepted), the page would show that and never the server's late answer.
      const theirs = await neighbor.post(`/api/barter-requests/${barterId}/confirm`);
      expect(theirs.status(), await theirs.text()).toBe(200);
      await answered;
      await expect(status).toBeVisible();
      await expect(confirm).toBeHidden();
      await context.unroute(`**/api/barter-requests/${barterId}`);
    } finally {
      await Promise.all([member.dispose(), neighbor.dispose()]);
    }
  });

  test('Chromium finds nothing in the way of installing the app', async ({
    playwright,
    launchOptions,
    baseURL,
  }) => {
    // Only a browser profile on disk can install apps (Playwright's usual contexts are off the record).
    const profile = mkdtempSync(path.join(os.tmpdir(), 'bh-install-'));
    const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await passGate(page);
      await page.goto('/');
      await waitForServiceWorker(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: Array<{ errorId: string }>;
      };
      expect(installabilityErrors).toEqual([]);
      const { url, errors } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect(url).toMatch(/\/manifest\.webmanifest$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
