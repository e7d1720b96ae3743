import type { Locator } from '@playwright/test';
import { annAndBen, expect, expectAccessible, type Page, test, toasts } from './fixtures';
import { shownName } from './support/shown-name';

const password = 'maple lantern 42';
/** Press Tab until `target` has the focus (at most `max` times): it is reachable by keyboard. */
async function tabTo(page: Page, target: Locator, max = 25): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('barters', () => {
  test('propose from the feed, accept, talk, confirm and rate, in two browsers', async ({ twoMembers }) => {
    test.setTimeout(150_000);
    // Each signed in, in a browser of their own, through the API (signing in is not what this tests),
    // at a spot of their own (annAndBen), so the feed holds only this test's items.
    const [{ page: ann, api: annApi }, { page: ben, api: benApi }] = await twoMembers(...annAndBen(password));
    // How each sees the other: "Ann A.", or a letter more when an earlier Ann A. lives near (ADR 058).
    const annName = await shownName(benApi, annApi);
    const benName = await shownName(annApi, benApi);
    const post = async (api: typeof annApi, data: Record<string, unknown>) => {
      const response = await api.post('/api/items', { data: { description: 'In good shape.', ...data } });
      expect(response.status(), await response.text()).toBe(201);
    };
    await post(benApi, { title: 'Cordless drill', category: 'tools' });
    await post(benApi, { title: 'Aluminum ladder', category: 'tools' });
    await post(annApi, { title: 'Mountain bike', category: 'bikes' });
    await post(annApi, { title: 'Hidden lamp', category: 'furniture', isActive: false });

    // --- Ann proposes her bike for Ben's drill, from the feed, by keyboard. ---
    await ann.goto('/');
    await ann.getByRole('tab', { name: 'Everything' }).click();
    const card = ann.getByRole('article', { name: 'Cordless drill' });
    const propose = card.getByRole('button', { name: 'Propose Barter' });
    await propose.click();
    let dialog = ann.getByRole('dialog', { name: 'Propose a Barter' });
    await expect(dialog.getByRole('checkbox', { name: 'Mountain bike' })).toBeVisible();
    // Escape closes it and gives the focus back; Enter on the button opens it again.
    await ann.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(propose).toBeFocused();
    await ann.keyboard.press('Enter');
    dialog = ann.getByRole('dialog', { name: 'Propose a Barter' });
    const bike = dialog
      .getByRole('group', { name: 'You offer' })
      .getByRole('checkbox', { name: 'Mountain bike' });
    await expect(bike).toBeVisible();
    // Only what Ann can offer (the hidden lamp is not), and the drill is already asked for.
    await expect(dialog.getByRole('group', { name: 'You offer' }).getByRole('checkbox')).toHaveCount(1);
    const asked = dialog.getByRole('group', { name: 'You ask for' });
    await expect(asked.getByRole('checkbox', { name: 'Cordless drill' })).toBeChecked();
    await expect(asked.getByRole('checkbox', { name: 'Aluminum ladder' })).not.toBeChecked();
    await expectAccessible(ann);

    // Sending with nothing offered says what is missing.
    await tabTo(ann, dialog.getByRole('button', { name: 'Send Proposal' }));
    await ann.keyboard.press('Enter');
    await expect(dialog.getByText('Choose at least one of your items to offer')).toBeVisible();
    await tabTo(ann, bike);
    await ann.keyboard.press('Space');
    await expect(bike).toBeChecked();
    await tabTo(ann, dialog.getByLabel('Message (optional)'));
    await ann.keyboard.type('My bike for your drill?');
    await tabTo(ann, dialog.getByRole('button', { name: 'Send Proposal' }));
    await ann.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(toasts(ann).getByText('Proposal Sent')).toBeVisible();
    await toasts(ann).getByRole('link', { name: 'View the barter' }).click();
    await expect(ann.getByRole('heading', { name: `Barter with ${benName}` })).toBeVisible();
    const barterUrl = ann.url();
    await expect(ann.getByRole('button', { name: 'Withdraw' })).toBeVisible();
    await expect(ann.getByRole('button', { name: 'Accept' })).toHaveCount(0);

    // --- Ben, in his own browser, finds it in Incoming and accepts. ---
    await ben.goto('/barters');
    await expect(ben.getByRole('tab', { name: 'Incoming' })).toHaveAttribute('aria-selected', 'true');
    const row = ben.getByRole('listitem').filter({ hasText: annName });
    await expect(row.getByText('Pending')).toBeVisible();
    const open = row.getByRole('link', { name: /You give: Cordless drill/ });
    await expect(open).toContainText('You get: Mountain bike');
    await expectAccessible(ben);
    await open.click();
    await expect(ben.getByRole('heading', { name: `Barter with ${annName}` })).toBeVisible();
    expect(ben.url()).toBe(barterUrl);
    await expect(ben.getByText('My bike for your drill?')).toBeVisible();
    await expect(ben.getByRole('button', { name: 'Decline' })).toBeVisible();
    await expect(ben.getByRole('button', { name: 'Counter' })).toBeVisible();
    await expectAccessible(ben);
    await ben.getByRole('button', { name: 'Accept' }).click();
    await expect(ben.getByText('Accepted', { exact: true })).toBeVisible();
    await expect(ben.getByRole('button', { name: 'Accept' })).toHaveCount(0);
    await expect(ben.getByRole('button', { name: 'Cancel barter' })).toBeVisible();

    // --- The conversation, both ways (a reload shows the other's message). ---
    const benBox = ben.getByRole('textbox', { name: 'Message', exact: true });
    await benBox.fill('Saturday at ten, by the library?');
    await benBox.press('Enter');
    const benMessages = ben.getByRole('list', { name: 'Messages' });
    await expect(benMessages.getByText('Saturday at ten, by the library?')).toBeVisible();
    await expect(benBox).toHaveValue('');

    await ann.reload();
    await expect(
      ann.getByRole('list', { name: 'Messages' }).getByText('Saturday at ten, by the library?'),
    ).toBeVisible();
    await ann.getByRole('textbox', { name: 'Message', exact: true }).fill('Works for me!');
    await ann.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(ann.getByRole('list', { name: 'Messages' }).getByText('Works for me!')).toBeVisible();

    // --- Both confirm: the first waits for the second. ---
    await expect(ann.getByText(/Both of you confirm/)).toBeVisible();
    await ann.getByRole('button', { name: 'Confirm completed' }).click();
    await expect(
      ann.getByText(`You confirmed the exchange. Waiting for ${benName} to confirm.`),
    ).toBeVisible();
    await expect(ann.getByRole('button', { name: 'Confirm completed' })).toHaveCount(0);

    await ben.reload();
    await expect(benMessages.getByText('Works for me!')).toBeVisible();
    await expect(
      ben.getByText(`${annName} confirmed the exchange. Confirm it too once you have yours.`),
    ).toBeVisible();
    await ben.getByRole('button', { name: 'Confirm completed' }).click();
    await expect(ben.getByText('Completed', { exact: true })).toBeVisible();

    // --- Both rate. ---
    const benRating = ben.getByRole('form', { name: `Rate ${annName}` });
    await benRating.getByRole('radio', { name: '5 stars' }).check();
    await benRating.getByLabel('Comment (optional)').fill('Great trade, bike as described.');
    await benRating.getByRole('button', { name: 'Rate' }).click();
    await expect(benRating).toBeHidden();
    await expect(ben.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(ben.getByText(`${annName} has not rated this barter yet.`)).toBeVisible();

    await ann.reload();
    const annRating = ann.getByRole('form', { name: `Rate ${benName}` });
    // The stars by keyboard: arrows move within the radio group.
    await annRating.getByRole('radio', { name: '3 stars' }).focus();
    await ann.keyboard.press('ArrowRight');
    await expect(annRating.getByRole('radio', { name: '4 stars' })).toBeChecked();
    await annRating.getByRole('button', { name: 'Rate' }).click();
    await expect(annRating).toBeHidden();
    await expect(ann.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
    await expect(ann.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
    await expect(ann.getByText('Great trade, bike as described.')).toBeVisible();
    await expectAccessible(ann);

    // The finished barter is in Past.
    await ann.goto('/barters?box=past');
    await expect(
      ann.getByRole('listitem').filter({ hasText: benName }).getByText('Completed', { exact: true }),
    ).toBeVisible();
    await expectAccessible(ann);
  });
});
