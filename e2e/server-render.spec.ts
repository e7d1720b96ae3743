import {
  expect,
  expectAccessible,
  listItem,
  memberApi,
  milesNorth,
  ownSpot,
  signInThroughApi,
  test,
  uniqueEmail,
  withoutAppStart,
} from './fixtures';

/**
 * ADR 037: the feed, the profile and a barter page come from the server already drawn, with the
 * data the browser then takes over (hydration keeps the server's elements: nothing is drawn twice),
 * in the member's language; without JavaScript the page still reads.
 */
test.describe('pages drawn by the server', () => {
  test('the feed arrives drawn, and the browser takes it over without drawing it again', async ({
    gatedPage: page,
    baseURL,
    browser,
  }) => {
    const title = `Server-drawn lamp ${Date.now().toString(36)}`;
    // A spot of this journey's own: a neighbour of another journey would change the feed under it.
    const spot = ownSpot();
    const neighbor = await memberApi(
      baseURL ?? '',
      { firstName: 'Sol', email: uniqueEmail('sol'), password: 'maple lantern 42' },
      { location: 'Portland', latitude: spot.latitude + milesNorth(1), longitude: spot.longitude },
    );
    const email = uniqueEmail('rae');
    const member = await memberApi(
      baseURL ?? '',
      { firstName: 'Rae', email, password: 'maple lantern 42' },
      { location: 'Portland', latitude: spot.latitude, longitude: spot.longitude },
    );
    try {
      expect(
        (
          await neighbor.post('/api/items', {
            data: { title, category: 'furniture', description: 'A lamp.' },
          })
        ).status(),
      ).toBe(201);
      expect((await member.post('/api/wants', { data: { title, category: 'furniture' } })).status()).toBe(
        201,
      );
      expect((await member.put('/api/account/getting-started', { data: { completed: true } })).status()).toBe(
        200,
      );
    } finally {
      await neighbor.dispose();
      await member.dispose();
    }
    await signInThroughApi(page, { email: email, password: 'maple lantern 42' });
    await page.goto('/');

    // The HTML itself carries the feed and the data it was drawn with; another member's e-mail never.
    const html = await (await page.request.get('/', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('Welcome, Rae!');
    expect(html).toContain(title);
    expect(html).toContain('id="page-data"');
    expect(html).not.toMatch(/<script>/);
    expect(html).not.toContain('sol-');

    // The heading the server drew is the one on screen once the scripts have run.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        Object.assign(window, { serverHeading: document.querySelector('h1') });
        // The whole stylesheet's media when the app has started (ADR 111).
        new MutationObserver((_changes, observer) => {
          if (document.documentElement.dataset.app !== 'started') return;
          observer.disconnect();
          const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-whole]')];
          Object.assign(window, {
            wholeMediaAtStart: links.map((link) => link.media),
            // The style keeping a touch phone's scroll indicator undrawn while the page starts (ADR 112).
            startingStyleAtStart: document.querySelectorAll('style[data-starting]').length,
          });
          // Then the app draws, on its own, an element with a class the page as drawn does not use
          // (a live update's trade circle line on a card): the whole stylesheet applies before the
          // element is laid out, so it never shows unstyled, nor moves at the first press (ADR 119).
          const drawnLater = Object.assign(document.createElement('div'), {
            className: 'grid justify-items-start',
            textContent: 'A live update',
          });
          const classWasOnPage = document.querySelector('.justify-items-start') !== null;
          document.getElementById('root')?.append(drawnLater);
          queueMicrotask(() => {
            Object.assign(window, {
              drawnLater: {
                classWasOnPage,
                justifyItems: getComputedStyle(drawnLater).justifyItems,
                wholeMedia: links.map((link) => link.media),
              },
            });
            drawnLater.remove();
          });
        }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-app'] });
      });
    });
    // ICU's locale data is loaded in a worker while the scripts arrive (web/boot.ts): it replies and ends.
    let warmedUp: string | undefined;
    page.on('worker', (worker) => {
      if (worker.url().includes('intl-warm-up')) worker.on('close', () => (warmedUp = worker.url()));
    });
    await page.goto('/');
    await expect(page.getByRole('article', { name: title })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await expect
      .poll(() => warmedUp, { timeout: 10_000 })
      .toMatch(/\/assets\/intl-warm-up\.worker-[\w-]+\.js$/);
    expect(
      await page.evaluate(() => {
        const kept = (window as unknown as { serverHeading: Element | null }).serverHeading;
        return kept !== null && kept === document.querySelector('h1') && kept.isConnected;
      }),
    ).toBe(true);
    // The whole stylesheet is there but applied only at the member's first touch, key or focus (or
    // once the page has settled), and then before what the app draws for it (ADR 111); or as soon as
    // the app draws on its own what the page's part does not style (ADR 119).
    const wholeMedia = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[data-whole]')].map((l) => l.media),
      );
    expect(
      await page.evaluate(() => (window as unknown as { wholeMediaAtStart?: string[] }).wholeMediaAtStart),
    ).toEqual(['print']);
    expect(
      await page.evaluate(
        () => (window as unknown as { startingStyleAtStart?: number }).startingStyleAtStart,
      ),
    ).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { drawnLater?: unknown }).drawnLater)).toEqual({
      classWasOnPage: false,
      justifyItems: 'start',
      wholeMedia: ['all'],
    });
    // Taken over: the feed's controls work.
    await page.getByRole('button', { name: title, exact: true }).click();
    expect(await wholeMedia()).toEqual(['all']);
    await expect(page.locator('style[data-starting]')).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: title })).toBeVisible();
    await page.keyboard.press('Escape');
    await expectAccessible(page);

    // On a touch phone the page starts with its scroll indicator undrawn and, with no touch at all,
    // has it back once the page has settled (ADR 112); the whole stylesheet is applied with it.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 600 },
      isMobile: true,
      hasTouch: true,
      storageState: await page.context().storageState(),
    });
    try {
      const touch = await phone.newPage();
      await touch.goto('/');
      await expect(touch.getByRole('article', { name: title })).toBeVisible();
      const indicator = () =>
        touch.evaluate(() => ({
          touch: matchMedia('(hover: none) and (pointer: coarse)').matches,
          scrollbarWidth: getComputedStyle(document.documentElement).scrollbarWidth,
          whole: [...document.querySelectorAll<HTMLLinkElement>('link[data-whole]')].map((l) => l.media),
        }));
      expect(await indicator()).toEqual({ touch: true, scrollbarWidth: 'none', whole: ['print'] });
      await expect
        .poll(indicator, { timeout: 20_000 })
        .toEqual({ touch: true, scrollbarWidth: 'auto', whole: ['all'] });
    } finally {
      await phone.close();
    }

    // Without JavaScript, the page still shows the feed.
    const context = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    try {
      const still = await context.newPage();
      await withoutAppStart(still);
      // The page as first drawn is kept and served again below with the whole stylesheet in place of
      // its part: drawn anew, it could differ (a listing alert for Rae, ADR 084, adds the bell's badge).
      let firstDrawn: string | undefined;
      let wholeStylesheet: string | undefined;
      await still.route(`${baseURL}/`, async (route) => {
        const response = await route.fetch();
        firstDrawn ??= await response.text();
        const body = wholeStylesheet
          ? firstDrawn.replace(
              /<style>[\s\S]*?<\/style>/,
              `<link rel="stylesheet" href="${wholeStylesheet}">`,
            )
          : firstDrawn;
        await route.fulfill({ response, body });
      });
      await still.goto(`${baseURL}/`);
      await expect(still.getByRole('heading', { name: 'Welcome, Rae!' })).toBeVisible();
      await expect(still.getByRole('article', { name: title })).toBeVisible();

      // The page carries the part of the stylesheet it uses (ADR 094): every element's computed
      // style is the one it has with the whole stylesheet in that part's place. So do an unread count
      // and a toast, which the app may draw on its own before that stylesheet applies (ADR 113): they
      // are added here as the app draws them (web/components/ui/count-badge.tsx, toaster.tsx).
      const computedStyles = () =>
        still.evaluate(() => {
          const drawnOnItsOwn = document.createElement('div');
          drawnOnItsOwn.innerHTML =
            '<span class="relative"><span class="absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white">3</span></span>' +
            '<li class="group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-8 shadow-lg border-red-700 bg-red-700 text-white"><div class="grid gap-1"><div class="text-sm font-semibold">Error</div><div class="text-sm opacity-90">Details</div></div><button class="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100">x</button></li>';
          document.body.append(drawnOnItsOwn);
          return [...document.querySelectorAll('body *')].map((element) => {
            const style = getComputedStyle(element);
            return `${element.tagName} ${Array.from(style, (name) => `${name}:${style.getPropertyValue(name)}`).join(';')}`;
          });
        });
      const drawn = await computedStyles();
      expect(drawn.length).toBeGreaterThan(50);
      const whole = await still.evaluate(
        () =>
          (JSON.parse(document.getElementById('app-scripts')?.textContent ?? '{}') as { styles?: string[] })
            .styles?.[0],
      );
      expect(whole).toMatch(/^\/assets\/index-[\w-]+\.css$/);
      wholeStylesheet = whole;
      await still.goto(`${baseURL}/`);
      await expect(still.locator(`link[rel="stylesheet"][href="${whole}"]`)).toHaveCount(1);
      expect(await computedStyles()).toEqual(drawn);
    } finally {
      await context.close();
    }
  });

  test("an item's page arrives with its area map's box, and the browser draws the map into that box", async ({
    gatedPage: page,
    baseURL,
  }) => {
    // Issue 31: the server could not load the map's chunk (Leaflet needs a window) and drew nothing
    // where the browser drew the map, so hydration failed (React #418) on every item page it drew.
    const title = `Server-drawn kettle ${Date.now().toString(36)}`;
    const spot = ownSpot();
    const owner = await memberApi(
      baseURL ?? '',
      { firstName: 'Sol', email: uniqueEmail('sol'), password: 'maple lantern 42' },
      { location: 'Portland', latitude: spot.latitude + milesNorth(1), longitude: spot.longitude },
    );
    const email = uniqueEmail('rae');
    const viewer = await memberApi(
      baseURL ?? '',
      { firstName: 'Rae', email, password: 'maple lantern 42' },
      { location: 'Portland', latitude: spot.latitude, longitude: spot.longitude },
    );
    let itemId: number;
    try {
      itemId = await listItem(owner, title, 'furniture');
    } finally {
      await owner.dispose();
      await viewer.dispose();
    }
    await signInThroughApi(page, { email, password: 'maple lantern 42' });
    const html = await (
      await page.request.get(`/items/${itemId}`, { headers: { accept: 'text/html' } })
    ).text();
    expect(html).toContain(title);
    expect(html).toMatch(/<div role="img" aria-label="Map of the approximate area[^"]*"/);

    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        Object.assign(window, { serverMap: document.querySelector('[data-testid="area-map"] [role="img"]') });
      });
    });
    await page.goto(`/items/${itemId}`);
    const map = page.getByTestId('area-map').getByRole('img', { name: /^Map of the approximate area/ });
    // Leaflet's panes inside the box: the map is drawn, in the element the server drew (kept, not redrawn).
    await expect(map.locator('.leaflet-map-pane')).toBeAttached();
    expect(
      await page.evaluate(() => {
        const kept = (window as unknown as { serverMap: Element | null }).serverMap;
        return kept?.isConnected === true && kept.querySelector('.leaflet-map-pane') !== null;
      }),
    ).toBe(true);
    await expectAccessible(page);
  });

  test('the profile is drawn in the language the member chose', async ({ gatedPage: page, baseURL }) => {
    const email = uniqueEmail('ines');
    const api = await memberApi(baseURL ?? '', { firstName: 'Inés', email, password: 'maple lantern 42' });
    await api.dispose();
    await signInThroughApi(page, { email: email, password: 'maple lantern 42' });
    await page.goto('/');
    await page.context().addCookies([{ name: 'barterhood_locale', value: 'es', url: baseURL ?? '' }]);
    const html = await (await page.request.get('/profile', { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<html lang="es">');
    await page.goto('/profile');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('tablist')).toBeVisible();
  });
});
