import { acceptedBarter, annAndBen, expect, expectAccessible, type Page, test, tomorrowAt } from './fixtures';
import { moveHandOverTime } from './support/hand-over-clock';
import { shownName } from './support/shown-name';

// Reminders of an agreed hand-over (issue 30, ADR 078): both members get the hour's reminder on their
// bell, live, from the server's own minute job `hand-over-reminders`. Nobody can wait a day for it:
// once the plan is agreed, the support listener moves the clock on (e2e/support/hand-over-clock.ts)
// until the window starts in 50 minutes, and the journey waits for the job's next run.

/** The job runs at each minute's start (ADR 066): one period, its run and the live event, with margin. */
const ONE_JOB_PERIOD = 120_000;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The header's bell. */
const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

/** Open the bell, wait for `latest` among its entries (opening marks them read), and close it again. */
async function readBell(page: Page, latest: RegExp): Promise<void> {
  await bellOf(page).click();
  await expect(page.getByRole('menuitem', { name: latest })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(
    page.getByRole('banner').getByRole('button', { name: 'Notifications', exact: true }),
  ).toBeVisible();
}

test('hand-over reminders: an hour before the agreed window, both members hear it on their bells without a reload', async ({
  twoMembers,
}) => {
  // Two members and their plan, then up to one run of the minute job (ONE_JOB_PERIOD).
  test.setTimeout(240_000);
  const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(...annAndBen());
  const { barterId } = await acceptedBarter(
    annApi,
    benApi,
    { title: 'Mountain bike, 26"', category: 'bikes' },
    { title: 'Cordless drill', category: 'tools' },
  );
  const annAsBenSees = await shownName(benApi, annApi);
  const benAsAnnSees = await shownName(annApi, benApi);

  // --- Ann proposes tomorrow afternoon at the library; Ben accepts (the plan's own journey walks these
  // screens by keyboard and on a phone). ---
  await ann.goto(`/barters/${barterId}`);
  const annPlan = ann.getByRole('region', { name: 'Hand-over plan' });
  await annPlan.getByRole('button', { name: 'Propose a time and place' }).click();
  const form = ann.getByRole('form', { name: 'Propose a time and place' });
  await form.getByLabel('From').fill(await tomorrowAt(ann, 14));
  await form.getByLabel('Until').fill(await tomorrowAt(ann, 15));
  const place = 'Central Library, main entrance';
  await form.getByRole('textbox', { name: 'Place' }).fill(place);
  await form.getByRole('textbox', { name: 'Place' }).press('Enter');
  await expect(annPlan.getByText(/^You proposed this\. Waiting for .+ to answer\.$/)).toBeVisible();
  await ben.goto(`/barters/${barterId}`);
  const benPlan = ben.getByRole('region', { name: 'Hand-over plan' });
  await benPlan.getByRole('button', { name: 'Accept this plan' }).click();
  await expect(benPlan.getByText('Agreed by both of you.')).toBeVisible();
  await expect(annPlan.getByText('Agreed by both of you.')).toBeVisible();

  // Both read their bells, so what rises next is the reminder alone.
  await readBell(ann, new RegExp(`^(Unread: )?${escaped(benAsAnnSees)} agreed to the time and place`));
  await readBell(ben, new RegExp(`^(Unread: )?${escaped(annAsBenSees)} proposed a time and place`));

  // --- The clock moves on: the agreed window now starts in 50 minutes. The server's minute job sends
  // the hour's reminder (the day's is no longer due: ADR 078 sends only the nearer one). ---
  await moveHandOverTime('hand-over-starts-soon', { barterId, minutes: 50 });
  const reminder = (other: string) =>
    new RegExp(
      `^Unread: Reminder: your hand-over with ${escaped(other)} is in 1 hour: .+, at ${escaped(place)}`,
    );
  for (const [page, other] of [
    [ann, benAsAnnSees],
    [ben, annAsBenSees],
  ] as const) {
    // No reload: the count rises on the open barter page when the job's live event arrives.
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'Notifications, 1 unread' }),
    ).toBeVisible({
      timeout: ONE_JOB_PERIOD,
    });
    await bellOf(page).click();
    const entry = page.getByRole('menuitem', { name: reminder(other) });
    await expect(entry).toBeVisible();
    await expect(entry).toHaveAttribute('href', `/barters/${barterId}`);
    await expect(entry).toContainText(`Reminder: your hand-over with ${other} is in 1 hour`);
    // Only the hour's: within the hour the day's reminder is no longer due, so it never comes late.
    await expect(page.getByRole('menuitem', { name: /is in 24 hours/ })).toHaveCount(0);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'Notifications', exact: true }),
    ).toBeVisible();
  }
});
