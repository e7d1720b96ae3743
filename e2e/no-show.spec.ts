import {
  acceptedBarter,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  listItem,
  milesNorth,
  test,
  uniqueEmail,
} from './fixtures';
import { moveHandOverTime } from './support/hand-over-clock';

// Keeping your word (issue 30, ADR 079): the window passes, Ann reports that Ben did not come, Ben
// does not answer; 48 hours on, Ben's record reads "Kept 0 of 1 hand-overs" on his page and cards.
// Neither wait can be slept: the support listener in the server's process moves the window and the
// report's time into the past (e2e/support/hand-over-clock.ts).

const password = 'maple lantern 42';

test('no-show: the window passes, Ann reports, Ben does not answer: Kept 0 of 1 hand-overs', async ({
  twoMembers,
}) => {
  test.setTimeout(150_000);
  const origin = { latitude: 20 + Math.random() * 40, longitude: -120 + Math.random() * 40 };
  const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(
    {
      firstName: 'Ann',
      lastName: 'Able',
      email: uniqueEmail('ann'),
      password,
      area: { location: 'Testville', ...origin },
    },
    {
      firstName: 'Ben',
      lastName: 'Baker',
      email: uniqueEmail('ben'),
      password,
      area: {
        location: 'Testville North',
        latitude: origin.latitude + milesNorth(1),
        longitude: origin.longitude,
      },
    },
  );
  const { barterId } = await acceptedBarter(
    annApi,
    benApi,
    { title: 'Mountain bike, 26"', category: 'bikes' },
    { title: 'Cordless drill', category: 'tools' },
  );
  // A plan for tomorrow, agreed by both (the plan's own journey walks these screens).
  const start = new Date(Date.now() + 24 * 3_600_000);
  const plan = await annApi.put(`/api/barter-requests/${barterId}/hand-over-plan`, {
    data: {
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 3_600_000).toISOString(),
      place: 'Central Library',
      replaces: null,
    },
  });
  expect(plan.status(), await plan.text()).toBe(200);
  const agreed = await benApi.post(`/api/barter-requests/${barterId}/hand-over-plan/accept`, {
    data: { version: 1 },
  });
  expect(agreed.status(), await agreed.text()).toBe(200);
  const benId = ((await (await benApi.get('/api/auth/user')).json()) as { id: string }).id;

  // --- The window passes without the barter completing; Ann reports, by keyboard. ---
  await moveHandOverTime('hand-over-window-passed', { barterId });
  await ann.goto(`/barters/${barterId}`);
  const annSection = ann.getByRole('region', { name: 'Keeping your word' });
  await expect(annSection.getByText(/The hand-over window has passed/)).toBeVisible();
  await expectAccessible(ann);
  await annSection.getByRole('button', { name: "They didn't come" }).focus();
  await ann.keyboard.press('Enter');
  await expect(
    annSection.getByText(/You reported that .+ did not come\. They can answer until/),
  ).toBeVisible();

  // --- Ben, on a 390 px phone, is told without being told who; he does not answer. ---
  await ben.setViewportSize({ width: 390, height: 844 });
  await ben.goto(`/barters/${barterId}`);
  const benSection = ben.getByRole('region', { name: 'Keeping your word' });
  await expect(benSection.getByText(/Your trading partner reported that you did not come/)).toBeVisible();
  await expect(benSection.getByRole('button', { name: 'I was there' })).toBeVisible();
  // The report names nobody (Ben may still report Ann in turn: both sides can).
  await expect(benSection.getByText(/Your trading partner reported/)).not.toContainText('Ann');
  await expectNoSidewaysScroll(ben, 390);
  await expectAccessible(ben);

  // --- 48 hours pass unanswered: a missed hand-over, on Ben's page and his cards. ---
  await moveHandOverTime('no-show-reports-aged', { barterId, hours: 49 });
  await listItem(benApi, 'Garden hose, 15 m', 'tools');
  await ann.goto(`/members/${benId}`);
  await expect(ann.getByRole('heading', { level: 1 })).toContainText('Ben');
  await expect(ann.getByText('Kept 0 of 1 hand-overs').first()).toBeVisible();
  const card = ann.getByRole('article').filter({ hasText: 'Garden hose, 15 m' });
  await expect(card.getByText('Kept 0 of 1 hand-overs')).toBeVisible();
  await expectAccessible(ann);
  await ben.reload();
  await expect(benSection.getByText(/counts as a missed hand-over/)).toBeVisible();
  await expectNoSidewaysScroll(ben, 390);
});
