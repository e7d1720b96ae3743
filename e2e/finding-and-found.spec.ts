import sharp from 'sharp';
import type { Item } from '#common/schemas/listings.ts';
import { startTestPushService, type TestPushService } from '#server/test/push-service.ts';
import {
  annAndBen,
  expect,
  expectAccessible,
  expectFitsPhone,
  listItem,
  type Page,
  test,
  toasts,
} from './fixtures';

/*
 * Issue 31's "Done when", as two neighbours in real browsers: Ann lists a bike with three photos and
 * a condition; Ben, who saved a search for it, gets a Web Push at the push service on this machine
 * (its VAPID signature checked, decrypted: the item's link) and an entry on his bell; he opens the
 * shared link in a browser signed out, passes the gate, signs in from the item's page and proposes
 * from it. Ben's device is subscribed through the API with the local service's keys, as the page's
 * own code would post them (ADR 087: Chromium's PushManager subscribes at Google's service, which a
 * test cannot reach). The alert comes from the server's own minute job `listing-alerts` (ADR 084).
 */

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

/** A generated photo of one colour, as a JPEG file for the file chooser. */
async function photo(name: string, colour: string) {
  const buffer = await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

let push: TestPushService;
test.beforeAll(async () => {
  push = await startTestPushService();
});
test.afterAll(async () => {
  await push?.close();
});

test('Ann lists a bike with three photos and a condition; Ben, who saved a search for it, gets a push and a bell entry, opens the link signed out, passes the gate, signs in and proposes @phone', async ({
  twoMembers,
  signedOutBrowser,
}) => {
  test.setTimeout(300_000);
  const password = 'maple lantern 42';
  const [annNew, benNew] = annAndBen(password);
  const [ann, ben] = await twoMembers(annNew, benNew);
  const title = 'Road bike, 56 cm';

  // --- Ben: a saved search for road bikes, a device for pushes, something to offer. ---
  const saved = await ben.api.post('/api/saved-searches', {
    data: { name: 'Road bikes', feed: 'everything', q: 'road bike', radius: 5 },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const device = push.device();
  const subscribed = await ben.api.post('/api/push/subscriptions', { data: device.subscription });
  expect(subscribed.status(), await subscribed.text()).toBe(201);
  const key = (await (await ben.api.get('/api/push/key')).json()) as { publicKey: string };
  await listItem(ben.api, 'Bike pump', 'bikes');
  // His home page stays open: the bell hears of the listing live.
  await ben.page.goto('/');
  await expect(bellOf(ben.page)).toBeVisible();

  // --- Ann lists the bike: three photos chosen at once, a condition. ---
  const page = ann.page;
  await page.goto('/profile?tab=items');
  await expect(page.getByRole('heading', { name: 'My Items (0)' })).toBeVisible();
  if ((page.viewportSize()?.width ?? 1280) < 640)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Add' }).click();
  else await page.getByRole('button', { name: 'Add Item' }).last().click();
  const form = page.getByRole('dialog', { name: 'Add New Item' });
  const chooser = page.waitForEvent('filechooser');
  await form.getByRole('button', { name: 'Choose File' }).click();
  await (await chooser).setFiles([
    await photo('red.jpg', '#c0392b'),
    await photo('green.jpg', '#27ae60'),
    await photo('blue.jpg', '#2c3e50'),
  ]);
  await expect(form.getByRole('list', { name: 'Your photos, the cover first' }).getByRole('img')).toHaveCount(
    3,
  );
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Steel frame, new tyres.');
  await form.getByLabel('Category').selectOption('bikes');
  await form.getByLabel('Condition (optional)').selectOption({ label: 'Like new' });
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Add Item' }).click();
  await expect(toasts(page).getByText('Your item has been added.')).toBeVisible({ timeout: 60_000 });
  await expect(form).toBeHidden();
  const bike = ((await (await ann.api.get('/api/items/my')).json()) as Item[]).find(
    (item) => item.title === title,
  );
  expect(bike?.photos).toHaveLength(3);
  expect(bike?.condition).toBe('like-new');
  const link = `/items/${bike?.id}`;

  // --- Ben's device: the push service receives it signed with the site's key, with the item's link. ---
  // Within a period of the job (each minute's start, ADR 066); the journey's own limit holds the wait.
  const received = await push.next(device.id);
  expect(received.vapidKey).toBe(key.publicKey);
  expect(received.payload).toEqual({
    title: 'Barterhood',
    body: 'New listing matching Road bikes',
    url: link,
    tag: expect.stringMatching(/^notification-\d+$/),
  });
  expect(push.refused).toEqual([]);

  // --- and his bell, live, without a reload: the entry opens the item's page. ---
  await expect(bellOf(ben.page)).toHaveAccessibleName(/^Notifications, \d+ unread$/);
  await expectFitsPhone(ben.page);
  await bellOf(ben.page).click();
  const entry = ben.page.getByRole('menuitem', { name: /^Unread: New listing matching Road bikes/ });
  await expect(entry).toHaveAttribute('href', link);
  await expectAccessible(ben.page);
  await ben.page.keyboard.press('Escape');

  // --- The link, opened where Ben is signed out: the gate first. ---
  const visitor = await signedOutBrowser();
  // The push's own link (asserted above to be the item's page).
  await visitor.goto((received.payload as { url: string }).url);
  const gate = visitor.getByLabel('Site password');
  await expect(gate).toBeVisible();
  await expectAccessible(visitor);
  await expectFitsPhone(visitor);
  await gate.fill('barter');
  await visitor.getByRole('button', { name: 'Enter Site' }).click();

  // The item itself: its photos, its condition, its area; no proposing signed out.
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(
    visitor.getByRole('region', { name: new RegExp(`^Photos of ${title}: Photo 1 of 3`) }),
  ).toBeVisible();
  await expect(visitor.getByText('Condition: Like new')).toBeVisible();
  await expect(visitor.getByTestId('area-map')).toContainText('Approximate area');
  await expect(visitor.getByRole('button', { name: 'Propose Barter' })).toHaveCount(0);
  await expectAccessible(visitor);
  await expectFitsPhone(visitor);

  // Sign in to propose: the login form, then back on the item.
  await visitor.getByRole('link', { name: 'Sign in to propose' }).click();
  await expect(visitor).toHaveURL(/\/login\?next=/);
  await expectAccessible(visitor);
  await expectFitsPhone(visitor);
  await visitor.getByLabel('Email').fill(benNew.email);
  await visitor.getByLabel('Password', { exact: true }).fill(password);
  await visitor.getByRole('button', { name: 'Sign In' }).click();
  await expect(visitor).toHaveURL(new RegExp(`${link}$`));
  await expect(visitor.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expectAccessible(visitor);
  await expectFitsPhone(visitor);

  // The proposal, from the item's page: the bike asked for, the pump offered.
  await visitor.getByRole('button', { name: 'Propose Barter' }).click();
  const dialog = visitor.getByRole('dialog', { name: 'Propose a Barter' });
  await expect(
    dialog.getByRole('group', { name: 'You ask for' }).getByRole('checkbox', { name: title }),
  ).toBeChecked();
  await dialog.getByRole('group', { name: 'You offer' }).getByRole('checkbox', { name: 'Bike pump' }).check();
  await expectAccessible(visitor);
  await dialog.getByRole('button', { name: 'Send Proposal' }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(visitor).getByText('Proposal Sent')).toBeVisible();
  await toasts(visitor).getByRole('link', { name: 'View the barter' }).click();
  await expect(visitor).toHaveURL(/\/barters\/\d+$/);
  await expect(
    visitor.getByRole('region', { name: /gives$/ }).getByRole('link', { name: title }),
  ).toBeVisible();
  await expectAccessible(visitor);
});
