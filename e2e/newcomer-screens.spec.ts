/**
 * What a newcomer tripped on (issue 28), on a 390 px phone and a 1280 px desktop: the profile's
 * width, Take Photo without a camera, the floating button over Send, the safety tip over a dialog,
 * the skip link, and Google sign-in offered only where it is set up.
 */
import type { Locator } from '@playwright/test';
import sharp from 'sharp';
import {
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  signInThroughApi,
  test,
  toasts,
  uniqueEmail,
  untilAppStarted,
} from './fixtures';

const password = 'maple lantern 42';
/** A long area, as a newcomer's reads: the line the phone's header cut ("…United S"). */
const LONG_AREA = 'Hawthorne District, Portland, Multnomah County, Oregon, United States';

/** A phone 390 px wide (the issue's), or the desktop project's 1280 px. */
async function fitScreen(page: Page, isMobile: boolean): Promise<number> {
  const width = isMobile ? 390 : 1280;
  await page.setViewportSize({ width, height: isMobile ? 844 : 800 });
  return width;
}

/** A member with an area, signed in through the API (not what these screens test); the API client is theirs. */
async function newMember(page: Page, baseURL: string | undefined, firstName: string) {
  const email = uniqueEmail(firstName.toLowerCase());
  const origin = ownSpot();
  const api = await memberApi(
    baseURL ?? '',
    { firstName, lastName: 'Newcomer', email, password },
    { location: LONG_AREA, ...origin },
  );
  await signInThroughApi(page, { email, password });
  await page.goto('/');
  return { api, email, origin };
}

/** The element at the centre of `locator`'s box is it or inside it: nothing covers it. */
async function expectUncovered(locator: Locator, what: string) {
  const covered = await locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top && (element === top || element.contains(top))
      ? null
      : (top?.outerHTML.slice(0, 160) ?? 'nothing');
  });
  expect(covered, `${what} is covered by`).toBeNull();
}

test.describe('a newcomer on a phone and a desktop (issue 28)', () => {
  test('every profile tab fits the screen, with the bottom navigation in view on a phone', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, isMobile }) => {
    const width = await fitScreen(page, isMobile);
    const { api } = await newMember(page, baseURL, 'Hollis');
    try {
      // Lists with something in them: an item and a want with long words.
      const item = await api.post('/api/items', {
        data: {
          title: 'Extraordinarily-long-named cordless drill with two batteries',
          description: 'Works great.',
          category: 'tools',
        },
      });
      expect(item.status(), await item.text()).toBe(201);
      const want = await api.post('/api/wants', {
        data: { title: 'Counterbalanced telescoping ladder for gutters', category: 'tools' },
      });
      expect(want.status(), await want.text()).toBe(201);
    } finally {
      await api.dispose();
    }

    await page.goto('/profile');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'Hollis Newcomer' })).toBeVisible();
    // The whole area, never cut.
    await expect(main.getByText(LONG_AREA)).toBeInViewport({ ratio: 1 });
    const tabs = page.getByRole('tablist', { name: 'Profile sections' });
    for (const [tab, shows] of [
      ['Profile', page.getByRole('button', { name: 'Update Profile' })],
      ['My Items', page.getByRole('heading', { name: 'My Items (1)' })],
      ['Want List', page.getByText('Counterbalanced telescoping ladder for gutters')],
      ['Trade History', page.getByText('No completed trades yet')],
      ['Saved', page.getByRole('tabpanel', { name: 'Saved' })],
      ['Account', page.getByRole('tabpanel', { name: 'Account' })],
    ] as const) {
      await tabs.getByRole('tab', { name: tab }).click();
      await expect(tabs.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      await expect(shows).toBeVisible();
      await expectNoSidewaysScroll(page, width);
      if (isMobile) {
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeInViewport({ ratio: 1 });
      }
      await expectAccessible(page);
    }
  });

  test('Take Photo with the camera refused, or no camera, says so and Choose File goes on', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, isMobile }) => {
    await fitScreen(page, isMobile);
    // The browser refuses as it would: permission denied, then a device without a camera.
    await page.addInitScript(() => {
      const refusal = { name: 'NotAllowedError' };
      Object.assign(window, { __cameraRefusal: refusal });
      Object.defineProperty(navigator.mediaDevices, 'getUserMedia', {
        configurable: true,
        value: async () => {
          throw new DOMException('The camera is not available', refusal.name);
        },
      });
    });
    const { api } = await newMember(page, baseURL, 'Cam');
    await api.dispose();
    for (const refusal of ['NotAllowedError', 'NotFoundError']) {
      await page.evaluate((name) => {
        (window as unknown as { __cameraRefusal: { name: string } }).__cameraRefusal.name = name;
      }, refusal);
      if (isMobile)
        await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Add' }).click();
      else await page.getByRole('button', { name: 'Add Item' }).click();
      const form = page.getByRole('dialog', { name: 'Add New Item' });
      await form.getByRole('button', { name: 'Take Photo' }).click();
      const camera = page.getByRole('dialog', { name: 'Take Photo' });
      await expect(camera.getByRole('alert')).toContainText(
        'Unable to access camera. Please check permissions.',
      );
      await expect(camera.getByRole('button', { name: 'Capture' })).toHaveCount(0);
      await expectAccessible(page);
      const chooser = page.waitForEvent('filechooser');
      await camera.getByRole('button', { name: 'Choose File' }).click();
      await (await chooser).setFiles({
        name: 'drill.jpg',
        mimeType: 'image/jpeg',
        buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c0392b' } })
          .jpeg()
          .toBuffer(),
      });
      await expect(camera).toBeHidden();
      await expect(form.getByRole('img', { name: 'Photo 1 of 1 (cover)' })).toBeVisible();
      // Cancel, not Escape: the photo's analysis may end with a toast, which Escape would close first.
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(form).toBeHidden();
    }
  });

  test("the barter page's Send is never under the floating button or the bottom navigation", {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, isMobile }) => {
    await fitScreen(page, isMobile);
    const { api: ann, origin } = await newMember(page, baseURL, 'Sena');
    const ben = await memberApi(
      baseURL ?? '',
      { firstName: 'Bo', lastName: 'Neighbor', email: uniqueEmail('bo'), password },
      { location: 'Near by', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
    );
    let barterId = 0;
    try {
      const item = async (api: typeof ann, title: string) => {
        const response = await api.post('/api/items', {
          data: { title, description: 'Good as new.', category: 'tools' },
        });
        expect(response.status(), await response.text()).toBe(201);
        return ((await response.json()) as { id: number }).id;
      };
      const offered = await item(ann, 'Hand saw');
      const asked = await item(ben, 'Step ladder');
      const proposed = await ann.post('/api/barter-requests', {
        data: { offeredItemIds: [offered], requestedItemIds: [asked] },
      });
      expect(proposed.status(), await proposed.text()).toBe(201);
      barterId = ((await proposed.json()) as { id: number }).id;
    } finally {
      await ann.dispose();
      await ben.dispose();
    }

    await page.goto(`/barters/${barterId}`);
    const send = page.getByRole('button', { name: 'Send', exact: true });
    await expect(send).toBeVisible();
    // Where the conversation comes to rest as the member types: Send at the screen's bottom edge.
    await send.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await expectUncovered(send, 'Send');
    // And reached by the keyboard from the message box.
    await page.getByLabel('Message', { exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(send).toBeFocused();
    await expectUncovered(send, 'Send');
    await expectAccessible(page);
  });

  test("the safety tip never covers the propose dialog's header", {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, isMobile }) => {
    await fitScreen(page, isMobile);
    const { api: ann, origin } = await newMember(page, baseURL, 'Tipa');
    const ben = await memberApi(
      baseURL ?? '',
      { firstName: 'Teo', lastName: 'Neighbor', email: uniqueEmail('teo'), password },
      { location: 'Near by', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
    );
    try {
      for (const [api, title] of [
        [ann, 'Garden hose'],
        [ben, 'Pressure washer'],
      ] as const) {
        const response = await api.post('/api/items', {
          data: { title, description: 'Good as new.', category: 'tools' },
        });
        expect(response.status(), await response.text()).toBe(201);
      }
    } finally {
      await ann.dispose();
      await ben.dispose();
    }
    // The page's clock, so the tip's 5 s on show can be held still while the dialog opens; installed
    // once the page signing up left is the app's, not while it hydrates.
    await untilAppStarted(page);
    await page.clock.install();
    await page.goto('/');
    await page.getByRole('tab', { name: 'Everything' }).click();
    const card = page.getByRole('article', { name: 'Pressure washer' });
    await expect(card).toBeVisible();
    // The first visit of the day: the tip shows 3 s after the feed opens.
    const tip = toasts(page).getByText(
      'Always meet in public places and trust your instincts when bartering with others.',
    );
    await expect(tip).toBeVisible();
    // Paused a moment ahead of the page's clock. Playwright refuses a moment the clock has passed,
    // which a loaded machine allows between reading it and the pause reaching the page (CI, stop 48):
    // then the clock is read again and the pause asked for further ahead.
    for (let ahead = 100; ; ahead *= 2) {
      const now = await page.evaluate(() => Date.now());
      const paused = await page.clock.pauseAt(now + ahead).then(
        () => true,
        (error: unknown) => {
          if (ahead >= 1_600 || !/to the past/.test(String(error))) throw error;
          return false;
        },
      );
      if (paused) break;
    }
    await card.getByRole('button', { name: 'Propose Barter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Propose a Barter' });
    const title = dialog.getByRole('heading', { name: 'Propose a Barter' });
    // The dialog's data arrive through timers too: the clock moves on a little at a time, far less
    // than the tip's 5 s.
    await expect
      .poll(async () => {
        await page.clock.runFor(50);
        return title.isVisible();
      })
      .toBe(true);
    // Nothing drawn over the header: no toast's box crosses it (a toast is not hit-tested over a
    // modal dialog, so elementFromPoint alone would not see one).
    const header = await title.boundingBox();
    expect(header).not.toBeNull();
    for (const shown of await toasts(page).locator('li').all()) {
      const box = await shown.boundingBox();
      if (!box || !header || !(await shown.isVisible())) continue;
      const crosses =
        box.x < header.x + header.width &&
        header.x < box.x + box.width &&
        box.y < header.y + header.height &&
        header.y < box.y + box.height;
      expect(crosses, `a toast (${await shown.textContent()}) over the dialog's header`).toBe(false);
    }
    await expectUncovered(title, "The dialog's header");
    await expect(tip).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.clock.resume();

    // Seen today: another visit to the feed shows the cards, not the tip again.
    await page.reload();
    await page.getByRole('tab', { name: 'Everything' }).click();
    await expect(card).toBeVisible();
    const tipStorage = await page.evaluate(() =>
      Object.keys(window.localStorage).filter((key) => key.startsWith('barterhood:safety-tip-shown:')),
    );
    expect(tipStorage).toHaveLength(1);
  });

  test('Tab reaches "Skip to content" first on every page, and Enter moves to the main content', {
    tag: '@phone',
  }, async ({ gatedPage: page, baseURL, isMobile }) => {
    await fitScreen(page, isMobile);
    const skipFirst = async (heading: RegExp) => {
      await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport({ ratio: 1 });
      await page.keyboard.press('Enter');
      await expect(page.getByRole('main')).toBeFocused();
      // The next Tab goes on from the main content, past the header.
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => Boolean(document.activeElement?.closest('main'))),
        'the focus after the skip is in the main content',
      ).toBe(true);
    };
    await page.goto('/');
    await skipFirst(/Trade with your neighbors/);
    await page.goto('/login');
    await skipFirst(/Welcome Back/);
    const { api } = await newMember(page, baseURL, 'Skye');
    await api.dispose();
    for (const path of ['/', '/profile']) {
      await page.goto(path);
      await skipFirst(path === '/' ? /Welcome, Skye/ : /Skye Newcomer/);
    }
    await expectAccessible(page);

    // The feeds' tabs are the WAI-ARIA tabs pattern: one Tab stop, arrow keys, Home and End.
    await page.goto('/');
    const feeds = page.getByRole('tablist', { name: 'Feeds' });
    await feeds.getByRole('tab', { name: 'Barter Match' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(feeds.getByRole('tab', { name: 'Random Barter' })).toBeFocused();
    await expect(feeds.getByRole('tab', { name: 'Random Barter' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('End');
    await expect(feeds.getByRole('tab', { name: 'Everything' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Home');
    await expect(feeds.getByRole('tab', { name: 'Barter Match' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(feeds.getByRole('tab', { name: 'Everything' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tabpanel', { name: 'Everything' })).toBeFocused();
  });

  test("Google sign-in, set up on this server, is offered with the first screen and the login's one line", async ({
    gatedPage: page,
  }) => {
    // The landing page's server-drawn HTML already has it: no request after the page for it.
    const html = await (await page.request.get('/')).text();
    expect(html).toContain('Sign In with Google');
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Or continue with Google' })).toBeVisible();
    await expect(page.getByText('or', { exact: true })).toHaveCount(0);
  });
});
