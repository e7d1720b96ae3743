import { annAndBen, expect, expectAccessible, expectFitsPhone, listItem, type Page, test } from './fixtures';
import { moveHandOverTime } from './support/hand-over-clock';

// Stale listings (issue 31, ADR 088): Ann's listing, unconfirmed for 30 days, asks her "Still
// available?" on her bell, live; she does not answer, and 7 days later it leaves the feeds (Ben's
// search no longer finds it) and My Items says why; one click on Renew puts it back. Nobody can wait
// a month: the support listener moves the listing's confirmation into the past (`listing-aged`, in
// e2e/support/hand-over-clock.ts) and the journey waits for the server's own minute job
// `stale-listings`. Desktop and phone.

/** The job runs at each minute's start (ADR 066): one period, its run and the live event, with margin. */
const ONE_JOB_PERIOD = 120_000;

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

/** Ben's search results for `q`: all listings within his distance (ADR 089). */
async function search(page: Page, q: string): Promise<void> {
  await page.goto(`/search?q=${encodeURIComponent(q)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Results for “${q}”` })).toBeVisible();
}

test('a listing nobody confirms asks "Still available?", leaves the feeds a week later, and Renew brings it back @phone', async ({
  twoMembers,
}) => {
  // Two runs of the minute job, each up to ONE_JOB_PERIOD.
  test.setTimeout(420_000);
  const [{ page: ann, api: annApi }, { page: ben }] = await twoMembers(...annAndBen());
  const title = `Folding ladder ${test.info().project.name}`;
  const itemId = await listItem(annApi, title, 'tools');
  const card = ben.getByRole('article', { name: title });
  await search(ben, 'folding ladder');
  await expect(card).toBeVisible();

  // --- 31 days pass: the job asks Ann, and her open page's bell hears it. ---
  await ann.goto('/');
  await moveHandOverTime('listing-aged', { itemId, days: 31 });
  await expect(bellOf(ann)).toHaveAccessibleName('Notifications, 1 unread', { timeout: ONE_JOB_PERIOD });
  await bellOf(ann).click();
  const asked = ann.getByRole('menuitem', { name: new RegExp(`^Unread: Still available\\? ${title}, `) });
  await expect(asked).toHaveAttribute('href', '/profile?tab=items');
  await expectAccessible(ann);
  await asked.click();
  await expect(ann).toHaveURL(/\/profile\?tab=items$/);
  const mine = ann.getByRole('listitem').filter({ hasText: title });
  await expect(mine.getByText('Still available?')).toBeVisible();
  await expect(mine.getByRole('button', { name: `Yes, still available: ${title}` })).toBeVisible();
  await expect(mine.getByRole('button', { name: `No, it's gone: ${title}` })).toBeVisible();
  await expectAccessible(ann);
  await expectFitsPhone(ann);
  // Still in the feeds while the question is open.
  await search(ben, 'folding ladder');
  await expect(card).toBeVisible();

  // --- 7 more days without an answer: out of the feeds, and Ann is told. ---
  await moveHandOverTime('listing-aged', { itemId, days: 7 });
  await expect(bellOf(ann)).toHaveAccessibleName('Notifications, 1 unread', { timeout: ONE_JOB_PERIOD });
  await bellOf(ann).click();
  await expect(
    ann.getByRole('menuitem', {
      name: new RegExp(`^Unread: Not shown in feeds until you renew it: ${title}, `),
    }),
  ).toHaveAttribute('href', '/profile?tab=items');
  await ann.keyboard.press('Escape');
  await ann.reload();
  await expect(mine.getByText('Not shown in feeds: not confirmed for 38 days')).toBeVisible();
  await expect(mine.getByRole('button', { name: `Show ${title}` })).toHaveCount(0);
  await expectAccessible(ann);
  await expectFitsPhone(ann);
  await search(ben, 'folding ladder');
  await expect(card).toHaveCount(0);

  // --- Renew, from the keyboard: back in the feeds. ---
  await mine.getByRole('button', { name: `Renew ${title}` }).focus();
  await ann.keyboard.press('Enter');
  await expect(mine.getByRole('button', { name: `Hide ${title}` })).toBeVisible();
  await expect(mine.getByText(/Not shown in feeds/)).toHaveCount(0);
  await search(ben, 'folding ladder');
  await expect(card).toBeVisible();
});
