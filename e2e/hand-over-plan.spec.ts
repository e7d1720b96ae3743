import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import {
  acceptedBarter,
  annAndBen,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  test,
  tomorrowAt,
} from './fixtures';

// Planning the hand-over (issue 30, ADR 077): two members of an accepted barter agree a time window
// and a place on its page, one adds it to a calendar, and "I'm running late" reaches the other live.

test('hand-over plan: Ann proposes, Ben accepts on his phone and adds it to his calendar; running late reaches Ann live', async ({
  twoMembers,
}) => {
  test.setTimeout(150_000);
  const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(...annAndBen());
  const { barterId } = await acceptedBarter(
    annApi,
    benApi,
    { title: 'Mountain bike, 26"', category: 'bikes' },
    { title: 'Cordless drill', category: 'tools' },
  );

  // --- Ann proposes a window and a place, by keyboard. ---
  await ann.goto(`/barters/${barterId}`);
  const annPlan = ann.getByRole('region', { name: 'Hand-over plan' });
  await expect(annPlan.getByText(/No time and place yet/)).toBeVisible();
  await annPlan.getByRole('button', { name: 'Propose a time and place' }).click();
  const form = ann.getByRole('form', { name: 'Propose a time and place' });
  await form.getByLabel('From').fill(await tomorrowAt(ann, 14));
  await form.getByLabel('Until').fill(await tomorrowAt(ann, 15));
  const place = 'Central Library, main entrance; by the lions';
  await form.getByRole('textbox', { name: 'Place' }).fill(place);
  await expectAccessible(ann);
  await form.getByRole('textbox', { name: 'Place' }).press('Enter');
  await expect(annPlan.getByText(/^You proposed this\. Waiting for .+ to answer\.$/)).toBeVisible();

  // --- Ben, on a phone-wide screen, sees it and accepts. ---
  await ben.setViewportSize({ width: 390, height: 844 });
  await ben.goto(`/barters/${barterId}`);
  const benPlan = ben.getByRole('region', { name: 'Hand-over plan' });
  await expect(benPlan.getByText(/proposed this\. Accept it or suggest another\./)).toBeVisible();
  await expect(benPlan.getByText(place)).toBeVisible();
  await expectNoSidewaysScroll(ben, 390);
  await expectAccessible(ben);
  const acceptButton = benPlan.getByRole('button', { name: 'Accept this plan' });
  await acceptButton.focus();
  await ben.keyboard.press('Enter');
  await expect(benPlan.getByText('Agreed by both of you.')).toBeVisible();
  // Ann's page follows without a reload (the barter's live event).
  await expect(annPlan.getByText('Agreed by both of you.')).toBeVisible();

  // --- "Add to calendar": a valid iCalendar file naming Ann, the items and the place. ---
  const downloading = ben.waitForEvent('download');
  await benPlan.getByRole('link', { name: 'Add to calendar' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`hand-over-${barterId}.ics`);
  const ics = await readFile((await download.path()) as string, 'utf8');
  const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent');
  expect(vevent).not.toBeNull();
  const event = new ICAL.Event(vevent as ICAL.Component);
  expect(event.summary).toBe('Hand-over with Ann: Cordless drill, Mountain bike, 26"');
  expect(event.location).toBe(place);
  expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(3_600_000);

  // --- Ben is running late: Ann hears at once, on the page and on the bell. ---
  await benPlan.getByRole('button', { name: "I'm running 10 minutes late" }).click();
  await expect(benPlan.getByText(/^You told .+ you are running 10 minutes late/)).toBeVisible();
  await expect(annPlan.getByRole('status')).toHaveText(/is running 10 minutes late/);
  await expect(ann.getByRole('button', { name: /^Notifications, \d+ unread$/ })).toBeVisible();
  await expectAccessible(ann);
  await expectAccessible(ben);
  await expectNoSidewaysScroll(ben, 390);
});
