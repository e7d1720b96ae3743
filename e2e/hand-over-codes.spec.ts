import type { Locator } from '@playwright/test';
import {
  acceptedBarter,
  expect,
  expectAccessible,
  expectNoSidewaysScroll,
  markPage,
  memberApi,
  milesNorth,
  ownSpot,
  type Page,
  passGate,
  signInThroughApi,
  stillSamePage,
  test,
  uniqueEmail,
} from './fixtures';

// Confirm on the spot (issue 30, ADR 075): two members at the meet-up, each with their barter page
// open; one enters the other's code and the barter completes at once, on both pages.

const password = 'maple lantern 42';

/** Press Tab until `target` has the focus (at most `max` times): it is reachable by keyboard. */
async function tabTo(page: Page, target: Locator, max = 40): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** Console errors and uncaught exceptions of a page the fixture does not watch (a second browser). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const url = message.location().url;
    if (message.text().startsWith('Failed to load resource') && /\/api\/auth\/user$/.test(url)) return;
    // The wrong code the journey enters on purpose answers 400.
    if (message.text().startsWith('Failed to load resource') && /\/hand-over-code$/.test(url)) return;
    errors.push(`${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

test('hand-over codes: Ben enters the code on Ann’s phone and the barter completes for both at once', async ({
  gatedPage: ann,
  baseURL,
  browser,
}) => {
  test.setTimeout(120_000);
  const origin = ownSpot();
  const annEmail = uniqueEmail('ann');
  const benEmail = uniqueEmail('ben');
  const annApi = await memberApi(
    baseURL ?? '',
    { firstName: 'Ann', lastName: 'Able', email: annEmail, password },
    { location: 'Testville', ...origin },
  );
  const benApi = await memberApi(
    baseURL ?? '',
    { firstName: 'Ben', lastName: 'Baker', email: benEmail, password },
    { location: 'Testville North', latitude: origin.latitude + milesNorth(1), longitude: origin.longitude },
  );
  let barterId: number;
  try {
    ({ barterId } = await acceptedBarter(
      annApi,
      benApi,
      { title: 'Mountain bike', category: 'bikes' },
      { title: 'Cordless drill', category: 'tools' },
    ));
  } finally {
    await annApi.dispose();
    await benApi.dispose();
  }

  // --- Ann, on her barter page: her code and its QR. ---
  await signInThroughApi(ann, { email: annEmail, password });
  await ann.goto(`/barters/${barterId}`);
  const annSection = ann.getByRole('region', { name: 'Confirm on the spot' });
  await expect(annSection).toBeVisible();
  const annCode = ann.getByTestId('my-hand-over-code');
  await expect(annCode).toHaveText(/^[A-Z2-9]{3} [A-Z2-9]{3}$/);
  const code = (await annCode.textContent()) ?? '';
  await expect(annSection.getByRole('img', { name: /QR code of your hand-over code/ })).toBeVisible();
  await expectAccessible(ann);
  await markPage(ann);

  // --- Ben, on a phone-wide screen, enters it by keyboard. ---
  const benContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const ben = await benContext.newPage();
    const benErrors = watchConsole(ben);
    await passGate(ben);
    await signInThroughApi(ben, { email: benEmail, password });
    // Ben's phone camera reads Ann's QR: the link it holds opens his barter page with her code in.
    const shown = await ann.request.get(`/api/barter-requests/${barterId}/hand-over-code`);
    const { link } = (await shown.json()) as { link: string };
    expect(link).toBe(`${baseURL}/barters/${barterId}?code=${code.replace(' ', '')}`);
    await ben.goto(link);
    const benSection = ben.getByRole('region', { name: 'Confirm on the spot' });
    await expect(benSection).toBeVisible();
    await expect(ben.getByTestId('my-hand-over-code')).not.toHaveText(code);
    const input = ben.getByRole('textbox', { name: 'Their code' });
    await expect(input).toHaveValue(code);
    await expect(benSection.getByText(/Code from the scanned QR code/)).toBeVisible();
    await expectNoSidewaysScroll(ben, 390);
    await expectAccessible(ben);

    // Typed by keyboard instead, a mistyped code first: said at once, with the tries left.
    await tabTo(ben, input);
    await input.fill('');
    const wrong =
      [...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'].find((c) => !code.includes(c))?.repeat(6) ?? 'ZZZZZZ';
    await ben.keyboard.type(wrong);
    await ben.keyboard.press('Enter');
    await expect(benSection.getByRole('alert')).toHaveText(
      'That is not their code for this hand-over: 4 tries left.',
    );
    await expectAccessible(ben);
    await input.fill('');
    await ben.keyboard.type(code.toLowerCase());
    await ben.keyboard.press('Enter');

    // Completed at once on Ben's page, and on Ann's without a reload (its live events).
    await expect(
      ben
        .getByRole('heading', { name: /Barter with/ })
        .locator('..')
        .getByText('Completed'),
    ).toBeVisible();
    await expect(benSection).toBeHidden();
    await expect(
      ann
        .getByRole('heading', { name: /Barter with/ })
        .locator('..')
        .getByText('Completed'),
    ).toBeVisible();
    await expect(annSection).toBeHidden();
    expect(await stillSamePage(ann)).toBe(true);
    await expectAccessible(ann);
    await expectNoSidewaysScroll(ben, 390);
    expect(benErrors).toEqual([]);
  } finally {
    await benContext.close();
  }
});
