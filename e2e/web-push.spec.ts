import { startTestPushService, type TestPushService } from '#server/test/push-service.ts';
import {
  annAndBen,
  expect,
  expectAccessible,
  expectFitsPhone,
  expectNoSidewaysScroll,
  listItem,
  test,
  toasts,
} from './fixtures';
import { shownName } from './support/shown-name';

/*
 * Web Push (issue 31, ADR 087) as a member gets it: Ben's device is subscribed, Ann proposes a
 * barter, and the push service on this machine receives the push, checks its VAPID signature and
 * decrypts it: Ben's words and the barter's link. The device is listed in Ben's Account tab and
 * removed there. Playwright's Chromium can grant the notification permission, but its PushManager
 * subscribes at Google's push service, which a test cannot reach: the device is subscribed through
 * the API with the local service's keys, as the page's own code would post them (ADR 087).
 */

let push: TestPushService;
test.beforeAll(async () => {
  push = await startTestPushService();
});
test.afterAll(async () => {
  await push?.close();
});

test('a proposal reaches Ben’s device as an encrypted push; his Account tab lists the device and removes it @phone', async ({
  twoMembers,
}, testInfo) => {
  const [annNew, benNew] = annAndBen();
  const [ann, ben] = await twoMembers(annNew, benNew);
  const device = push.device();
  const subscribed = await ben.api.post('/api/push/subscriptions', { data: device.subscription });
  expect(subscribed.status(), await subscribed.text()).toBe(201);
  const key = (await (await ben.api.get('/api/push/key')).json()) as { publicKey: string };

  const offered = await listItem(ann.api, 'Bread maker', 'appliances');
  const requested = await listItem(ben.api, 'Rice cooker', 'appliances');
  const proposed = await ann.api.post('/api/barter-requests', {
    data: { offeredItemIds: [offered], requestedItemIds: [requested] },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const barterId = ((await proposed.json()) as { id: number }).id;

  const received = await push.next(device.id);
  expect(received.vapidKey).toBe(key.publicKey);
  expect(received.payload).toEqual({
    title: 'Barterhood',
    body: `${await shownName(ben.api, ann.api)} proposed a barter`,
    url: `/barters/${barterId}`,
    tag: expect.stringMatching(/^notification-\d+$/),
  });
  expect(push.refused).toEqual([]);

  const page = ben.page;
  await page.goto('/profile?tab=account');
  await expect(page.getByRole('heading', { name: 'Phone and browser notifications' })).toBeVisible();
  const devices = page.getByRole('list', { name: 'Devices that get notifications' });
  const system = testInfo.project.name === 'phone' ? 'Android' : 'Windows';
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(devices.getByRole('listitem')).toContainText(`Chrome on ${system}`);
  await expectAccessible(page);
  // On the phone at its own width; on the desktop also at a 390 px phone's.
  if (testInfo.project.name === 'phone') await expectNoSidewaysScroll(page, page.viewportSize()?.width ?? 0);
  else await expectFitsPhone(page);

  await devices
    .getByRole('button', { name: new RegExp(`^Stop notifications on Chrome on ${system}, added `) })
    .click();
  await expect(toasts(page).getByText('Notifications stopped')).toBeVisible();
  await expect(devices).toBeHidden();
  expect((await (await ben.api.get('/api/push/subscriptions')).json()) as unknown[]).toEqual([]);

  expect(push.attempts(device.id)).toBe(1);
});

test('Ben sets listing alerts to None and proposals to Push by keyboard; the next proposal reaches his device @phone', async ({
  twoMembers,
}, testInfo) => {
  const [annNew, benNew] = annAndBen();
  const [ann, ben] = await twoMembers(annNew, benNew);
  const page = ben.page;
  await page.goto('/profile?tab=account');
  await expect(page.getByRole('heading', { name: 'How notifications reach you' })).toBeVisible();
  const alerts = page.getByRole('group', { name: 'New listings matching your saved searches and wants' });
  const proposals = page.getByRole('group', {
    name: 'New proposals, counter-offers, hand-over reminders and no-show reports',
  });
  // Before choosing (ADR 090): proposals by e-mail while he has no device, listing alerts by push;
  // no device gets pushes, which the section says and offers to change.
  await expect(proposals.getByRole('radio', { name: 'Email digest' })).toBeChecked();
  await expect(alerts.getByRole('radio', { name: 'Push' })).toBeChecked();
  await expect(page.getByText(/^No device gets push notifications from you yet/)).toBeVisible();
  await expectAccessible(page);
  if (testInfo.project.name === 'phone') await expectNoSidewaysScroll(page, page.viewportSize()?.width ?? 0);
  else await expectFitsPhone(page);

  // The arrow keys move a radio group's choice, and each choice is saved as it moves.
  const saved = (body: Record<string, string>) =>
    page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/account/notification-channels') &&
        response.request().method() === 'PUT' &&
        response.request().postData() === JSON.stringify(body),
    );
  await alerts.getByRole('radio', { name: 'Push' }).focus();
  let answer = saved({ listing_alerts: 'digest' });
  await page.keyboard.press('ArrowRight');
  await answer;
  answer = saved({ listing_alerts: 'none' });
  await page.keyboard.press('ArrowRight');
  await answer;
  await expect(alerts.getByRole('radio', { name: 'None' })).toBeChecked();
  await proposals.getByRole('radio', { name: 'Email digest' }).focus();
  answer = saved({ proposals: 'push' });
  await page.keyboard.press('ArrowLeft');
  expect((await answer).status()).toBe(200);
  await expect(proposals.getByRole('radio', { name: 'Push' })).toBeChecked();
  await expectAccessible(page);

  // The choice holds after a reload, and the API says the same.
  await page.reload();
  await expect(alerts.getByRole('radio', { name: 'None' })).toBeChecked();
  await expect(proposals.getByRole('radio', { name: 'Push' })).toBeChecked();
  expect(await (await ben.api.get('/api/account/notification-channels')).json()).toMatchObject({
    listing_alerts: 'none',
    proposals: 'push',
  });

  // His device (subscribed as the page would) gets Ann's proposal.
  const device = push.device();
  expect((await ben.api.post('/api/push/subscriptions', { data: device.subscription })).status()).toBe(201);
  const offered = await listItem(ann.api, 'Tea kettle', 'appliances');
  const requested = await listItem(ben.api, 'Coffee grinder', 'appliances');
  const proposed = await ann.api.post('/api/barter-requests', {
    data: { offeredItemIds: [offered], requestedItemIds: [requested] },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  // Ann's name as Ben is shown it: "Ann A.", or more when another Ann A. lives near (ADR 058).
  const annAs = await shownName(ben.api, ann.api);
  expect((await push.next(device.id)).payload).toMatchObject({ body: `${annAs} proposed a barter` });
});
