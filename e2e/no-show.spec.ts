import type { APIRequestContext } from '@playwright/test';
import {
  acceptedBarter,
  annAndBen,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  householdAddress,
  listItem,
  passGate,
  signInThroughApi,
  test,
  toasts,
} from './fixtures';
import { moveHandOverTime } from './support/hand-over-clock';
import { E2E_MODERATOR } from './support/moderator';

// Keeping your word (issue 30, ADR 079): the window passes, Ann reports that Ben did not come, Ben
// does not answer; 48 hours on, Ben's record reads "Kept 0 of 1 hand-overs" on his page and cards.
// Or Ben answers "I was there" and a moderator decides the disputed case on /moderation.
// Neither wait can be slept: the support listener in the server's process moves the window and the
// report's time into the past (e2e/support/hand-over-clock.ts).

/** Ann's barter with Ben, accepted, and a plan for tomorrow agreed by both (the plan's own journey
 * walks these screens). The barter's id and Ben's. */
async function agreedPlan(
  annApi: APIRequestContext,
  benApi: APIRequestContext,
): Promise<{ barterId: number; benId: string }> {
  const { barterId } = await acceptedBarter(
    annApi,
    benApi,
    { title: 'Mountain bike, 26"', category: 'bikes' },
    { title: 'Cordless drill', category: 'tools' },
  );
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
  return { barterId, benId };
}

test('no-show: the window passes, Ann reports, Ben does not answer: Kept 0 of 1 hand-overs', async ({
  twoMembers,
}) => {
  test.setTimeout(150_000);
  const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(...annAndBen());
  const { barterId, benId } = await agreedPlan(annApi, benApi);

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

test('no-show disputed: Ben answers "I was there", a moderator decides by keyboard, Ben\'s record follows', async ({
  twoMembers,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(...annAndBen());
  const { barterId, benId } = await agreedPlan(annApi, benApi);

  // --- The window passes; Ann reports (her screen is the journey above). ---
  await moveHandOverTime('hand-over-window-passed', { barterId });
  await ann.goto(`/barters/${barterId}`);
  const annSection = ann.getByRole('region', { name: 'Keeping your word' });
  await annSection.getByRole('button', { name: "They didn't come" }).click();
  await expect(
    annSection.getByText(/You reported that .+ did not come\. They can answer until/),
  ).toBeVisible();

  // --- Ben answers "I was there" with a note, by keyboard: the case is disputed. ---
  await ben.goto(`/barters/${barterId}`);
  const benSection = ben.getByRole('region', { name: 'Keeping your word' });
  await expect(benSection.getByText(/You can answer until/)).toBeVisible();
  await expectAccessible(ben);
  const note = 'I waited at the main entrance from 2 to 2:30.';
  await benSection.getByRole('textbox', { name: 'Note (optional)' }).fill(note);
  await benSection.getByRole('button', { name: 'I was there' }).focus();
  await ben.keyboard.press('Enter');
  await expect(benSection.getByText('You answered that you were there.', { exact: false })).toBeVisible();
  // Ann's page hears it without a reload.
  await expect(
    annSection.getByText(/They answered that they were there: a moderator will look at it\./),
  ).toBeVisible();
  // Until a moderator decides, an answered report counts as kept (ADR 079).
  await ann.goto(`/members/${benId}`);
  await expect(ann.getByRole('heading', { level: 1 })).toContainText('Ben');
  await expect(ann.getByText('Kept 1 of 1 hand-overs').first()).toBeVisible();

  // --- A moderator opens /moderation and decides the disputed case by keyboard: missed. ---
  const modContext = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': householdAddress() },
  });
  try {
    const mod = await modContext.newPage();
    await passGate(mod);
    await signInThroughApi(mod, { email: E2E_MODERATOR.email, password: E2E_MODERATOR.password });
    await mod.goto('/moderation');
    const disputed = mod.getByRole('region', { name: 'Disputed no-show reports' });
    // Other journeys' cases may wait in the same queue: this one is found by its barter's number.
    const theCase = disputed.getByRole('listitem').filter({ hasText: `(barter #${barterId})` });
    await expect(theCase.getByText(/^Ann .+ reported that Ben .+ did not come/)).toBeVisible();
    await expect(theCase.getByText(/answered on .+: I was there\./)).toBeVisible();
    await expect(theCase.getByText(note)).toBeVisible();
    const decision = theCase.getByRole('group', { name: /^Decide the report about Ben/ });
    await expect(decision).toBeVisible();
    await theCase.scrollIntoViewIfNeeded();
    await expectAccessible(mod);
    // Tab from Kept to Missed, then Enter.
    await decision.getByRole('button', { name: 'Kept' }).focus();
    await mod.keyboard.press('Tab');
    await expect(decision.getByRole('button', { name: 'Missed' })).toBeFocused();
    await mod.keyboard.press('Enter');
    await expect(toasts(mod).getByText('Decided: missed. Recorded in the audit log.')).toBeVisible();
    await expect(theCase).toHaveCount(0);
    await expectAccessible(mod);
  } finally {
    await modContext.close();
  }

  // --- Ben's record now counts the hand-over as missed, on his page; Ann reads that it was decided. ---
  await ann.reload();
  await expect(ann.getByText('Kept 0 of 1 hand-overs').first()).toBeVisible();
  await expectAccessible(ann);
  await ann.goto(`/barters/${barterId}`);
  await expect(annSection.getByText(/A moderator has decided the case\./)).toBeVisible();
});
