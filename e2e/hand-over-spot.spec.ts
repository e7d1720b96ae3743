import {
  acceptedBarter,
  expect,
  expectAccessible,
  expectFitsPhone,
  expectNoSidewaysScroll,
  milesNorth,
  passGate,
  signInThroughApi,
  test,
  tomorrowAt,
  uniqueEmail,
} from './fixtures';
import { E2E_MODERATOR } from './support/moderator';

// Public spots for the hand-over (issue 30, ADR 080): a moderator adds a spot through the place
// search with its source and corrects it by keyboard (Edit); two members of an accepted barter see it
// offered as near both of them, Ann chooses it by keyboard, Ben accepts on a 390 px phone, and the
// plan names the spot.

const password = 'maple lantern 42';

test('public spot: a moderator adds one; Ann and Ben agree their hand-over at it', async ({
  browser,
  baseURL,
  twoMembers,
}) => {
  test.setTimeout(180_000);
  const number = Math.floor(Math.random() * 1e6);
  const spotName = `Buckman Branch Library ${number}`;
  // Added with a typo and a vague source, then corrected.
  const typoName = `Buckman Branch Librery ${number}`;

  // --- The moderator adds the spot: its place through the place search, its source required. ---
  const modContext = await browser.newContext({ baseURL });
  const mod = await modContext.newPage();
  await passGate(mod);
  await signInThroughApi(mod, { email: E2E_MODERATOR.email, password: E2E_MODERATOR.password });
  await mod.goto('/moderation');
  const panel = mod.getByRole('region', { name: 'Public spots for hand-overs' });
  const form = panel.getByRole('form', { name: 'Add a public spot' });
  await form.getByRole('textbox', { name: 'Name' }).fill(typoName);
  await form.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Library' });
  const where = form.getByRole('combobox', { name: 'Where it is' });
  await where.fill('Buckman, Portland');
  // The offline place index may still be loading just after the server started.
  const buckman = mod.getByRole('option', { name: /^Buckman, Portland, Oregon/ });
  await expect(buckman).toBeVisible({ timeout: 60_000 });
  await where.press('ArrowDown');
  await where.press('Enter');
  await expect(where).toHaveValue(/^Buckman, Portland, Oregon/);
  const source = form.getByRole('textbox', { name: 'Source (a link or a citation)' });
  await source.fill('https://www.multcolib.org/locations');
  await expectAccessible(mod);
  await source.press('Enter');
  const list = panel.getByRole('list', { name: 'Public spots' });
  await expect(list.getByText(typoName)).toBeVisible();
  await expect(list.getByRole('link', { name: 'https://www.multcolib.org/locations' }).first()).toBeVisible();
  await expectAccessible(mod);

  // --- The moderator corrects the name and the source by keyboard: Edit opens the filled form. ---
  await list.getByRole('button', { name: `Edit ${typoName}` }).focus();
  await mod.keyboard.press('Enter');
  const editForm = list.getByRole('form', { name: `Edit ${typoName}` });
  const editName = editForm.getByRole('textbox', { name: 'Name' });
  await expect(editName).toBeFocused();
  await expect(editForm.getByRole('combobox', { name: 'Where it is' })).toHaveValue(
    /^Buckman, Portland, Oregon/,
  );
  await editName.fill(spotName);
  await editForm
    .getByRole('textbox', { name: 'Source (a link or a citation)' })
    .fill('https://www.multcolib.org/locations/buckman');
  await expectAccessible(mod);
  await expectFitsPhone(mod);
  await mod.keyboard.press('Enter');
  await expect(list.getByRole('button', { name: `Edit ${spotName}` })).toBeFocused();
  await expect(list.getByRole('link', { name: 'https://www.multcolib.org/locations/buckman' })).toBeVisible();
  await expect(list.getByText(typoName)).toHaveCount(0);
  await expectAccessible(mod);
  await modContext.close();

  // --- Two neighbours around Buckman (their homes about a mile either side). ---
  const origin = { latitude: 45.5175, longitude: -122.6495 };
  const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(
    {
      firstName: 'Ann',
      lastName: 'Spot',
      email: uniqueEmail('ann-spot'),
      password,
      area: {
        location: 'Buckman, Portland',
        latitude: origin.latitude - milesNorth(1),
        longitude: origin.longitude,
      },
    },
    {
      firstName: 'Ben',
      lastName: 'Spot',
      email: uniqueEmail('ben-spot'),
      password,
      area: {
        location: 'Kerns, Portland',
        latitude: origin.latitude + milesNorth(1),
        longitude: origin.longitude,
      },
    },
  );
  const { barterId } = await acceptedBarter(
    annApi,
    benApi,
    { title: 'Reading lamp', category: 'furniture' },
    { title: 'Electric kettle', category: 'household' },
  );

  // --- Ann chooses the spot by keyboard. ---
  await ann.goto(`/barters/${barterId}`);
  const annPlan = ann.getByRole('region', { name: 'Hand-over plan' });
  await annPlan.getByRole('button', { name: 'Propose a time and place' }).click();
  const plan = ann.getByRole('form', { name: 'Propose a time and place' });
  await plan.getByLabel('From').fill(await tomorrowAt(ann, 11));
  await plan.getByLabel('Until').fill(await tomorrowAt(ann, 12));
  const spots = plan.getByRole('group', { name: 'Public spots near you both' });
  const choice = spots.getByRole('radio', { name: new RegExp(`^${spotName} · Library · Portland, Oregon`) });
  await expect(choice).toBeVisible();
  // Names only: no distance to anyone.
  await expect(spots).not.toContainText(/\d\s?(mi|km)\b/);
  await choice.focus();
  await ann.keyboard.press('Space');
  await expect(choice).toBeChecked();
  await expect(plan.getByRole('textbox', { name: 'Place' })).toHaveValue(spotName);
  await expectAccessible(ann);
  await plan.getByRole('button', { name: 'Send this plan' }).press('Enter');
  await expect(annPlan.getByText(/^You proposed this\. Waiting for .+ to answer\.$/)).toBeVisible();

  // --- Ben, on a phone, sees the spot and accepts. ---
  await ben.setViewportSize({ width: 390, height: 844 });
  await ben.goto(`/barters/${barterId}`);
  const benPlan = ben.getByRole('region', { name: 'Hand-over plan' });
  await expect(benPlan.getByText(spotName)).toBeVisible();
  await expectNoSidewaysScroll(ben, 390);
  await expectAccessible(ben);
  await benPlan.getByRole('button', { name: 'Accept this plan' }).click();
  await expect(benPlan.getByText('Agreed by both of you.')).toBeVisible();
  await expect(annPlan.getByText('Agreed by both of you.')).toBeVisible();
  await expect(annPlan.getByText(spotName)).toBeVisible();

  // Rescheduling on the phone offers the same spot, chosen, and fits the screen.
  await benPlan.getByRole('button', { name: 'Reschedule' }).click();
  const benSpots = ben.getByRole('group', { name: 'Public spots near you both' });
  await expect(benSpots.getByRole('radio', { name: new RegExp(`^${spotName}`) })).toBeChecked();
  await expectNoSidewaysScroll(ben, 390);
  await expectAccessible(ben);
});
