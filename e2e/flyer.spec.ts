import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  type APIRequestContext,
  type Browser,
  type Locator,
  request as playwrightRequest,
} from '@playwright/test';
import jsQR from 'jsqr';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { expect, expectAccessible, ownSpot, type Page, type SignUp, test, uniqueEmail } from './fixtures';

/** What the stubbed print() saw in the print window, kept on the opener for the test to read. */
interface PrintedFlyer {
  html: string;
  tagline: string | null;
  qrWidth: number;
}

/**
 * Replace print() in every window of the context (the print window included) with a stand-in that
 * records the document and does not open the system dialog, so nothing hangs.
 */
async function stubPrint(page: Page) {
  await page.context().addInitScript(() => {
    window.print = () => {
      const printed = {
        html: document.documentElement.outerHTML,
        tagline: document.querySelector('h1, .tagline')?.textContent ?? null,
        qrWidth: document.querySelector('img')?.naturalWidth ?? 0,
      };
      const opener = window.opener as (Window & { __printedFlyers?: unknown[] }) | null;
      if (opener) opener.__printedFlyers = [...(opener.__printedFlyers ?? []), printed];
    };
  });
}

const printedFlyers = (page: Page) =>
  page.evaluate(() => (window as Window & { __printedFlyers?: PrintedFlyer[] }).__printedFlyers ?? []);

/** Read the QR code in an image element as a phone would: from a screenshot of its pixels. */
async function decodeQr(image: Locator): Promise<string | null> {
  const png = await image.screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return (
    jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ??
    null
  );
}

/** Pages in Chromium's print-to-PDF of a flyer document, as the print dialog would lay it out. */
/** The tallest empty band between two sections of the sheet as printed, in CSS pixels (96 to the inch). */
async function largestBand(browser: Browser, html: string): Promise<number> {
  const context = await browser.newContext({ offline: true });
  try {
    const page = await context.newPage();
    await page.emulateMedia({ media: 'print' });
    await page.setContent(html);
    return await page.evaluate(() => {
      const boxes = [...document.querySelectorAll('.sheet > *')].map((el) => el.getBoundingClientRect());
      return Math.max(0, ...boxes.slice(1).map((box, i) => box.top - (boxes[i]?.bottom ?? box.top)));
    });
  } finally {
    await context.close();
  }
}

async function pdfPages(
  browser: Browser,
  html: string,
): Promise<{ pages: number; width: number; height: number }> {
  const context = await browser.newContext({ offline: true });
  try {
    const page = await context.newPage();
    await page.setContent(html);
    const pdf = await page.pdf({ format: 'Letter', printBackground: true, preferCSSPageSize: true });
    const document = await PDFDocument.load(pdf);
    const { width, height } = document.getPage(0).getSize();
    return { pages: document.getPageCount(), width, height };
  } finally {
    await context.close();
  }
}

/** A place far from every other journey's members, so the neighbourhood holds only this test's members. */
function remotePlace() {
  return { location: 'Test Island', ...ownSpot() };
}

/** A second member who lives at `place` and lists two offers and a want, through the API. */
async function createNeighbor(baseURL: string, place: ReturnType<typeof remotePlace>, suffix: string) {
  const api: APIRequestContext = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await api.post('/api/verify-password', { data: { password: 'barter' } })).ok()).toBe(true);
    const email = uniqueEmail('nina');
    const registered = await api.post('/api/auth/register', {
      data: { firstName: 'Nina', lastName: 'Privatename', email, password: 'maple lantern 42' },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    const profile = await api.put('/api/user/profile', { data: { ...place, maxTravelDistance: 25 } });
    expect(profile.ok(), await profile.text()).toBe(true);
    const offers = [
      { title: `Ladder ${suffix}`, description: 'An 8 ft ladder.', category: 'tools' },
      { title: `Bike repair ${suffix}`, description: 'Tune-ups.', category: 'cycle', isService: true },
    ];
    for (const offer of offers) {
      const response = await api.post('/api/items', { data: offer });
      expect(response.status(), await response.text()).toBe(201);
    }
    const want = await api.post('/api/wants', {
      data: { title: `Sourdough starter ${suffix}`, category: 'household' },
    });
    expect(want.status(), await want.text()).toBe(201);
    return { email };
  } finally {
    await api.dispose();
  }
}

/** A new member, signed up through the API (signing in is not what this journey tests), at home. */
async function signInNewMember(page: Page, signUp: SignUp, firstName: string) {
  const email = uniqueEmail(firstName.toLowerCase());
  await signUp({ firstName, lastName: 'Tester', email, password: 'maple lantern 42' });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: `Welcome, ${firstName}!` })).toBeVisible();
}

test.describe('flyers', () => {
  test('/flyer previews the flyer with a QR code for the site and prints it in a new window', async ({
    gatedPage: page,
    baseURL,
    browser,
  }) => {
    await stubPrint(page);
    await page.goto('/flyer');
    await expect(page.getByRole('heading', { level: 1, name: 'Community Flyer' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    // The journeys' server has a loopback PUBLIC_URL: the page says where the QR code leads (issue 17).
    await expect(page.getByRole('note')).toContainText(`point to this computer (${baseURL})`);

    const preview = page.frameLocator('iframe[title="Flyer preview"]');
    await expect(preview.getByRole('heading', { name: 'Trade with Your Neighbors' })).toBeVisible();
    await expect(preview.getByText(/free community marketplace.*No money required/)).toBeVisible();
    await expect(preview.getByRole('listitem')).toHaveText([
      'Tools',
      'Books',
      'Electronics',
      'Home Items',
      'Garden Supplies',
      'Services',
    ]);
    await expect(preview.getByText('Scan to visit')).toBeVisible();
    const qr = preview.getByRole('img', { name: `QR code for ${baseURL}` });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expectAccessible(page);

    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Print a Flyer' }).click();
    const popup = await popupPromise;
    // print() runs 250 ms later, then the window closes itself.
    if (!popup.isClosed()) await popup.waitForEvent('close');
    const [printed] = await printedFlyers(page);
    expect(printed?.tagline).toBe('Trade with Your Neighbors');
    expect(printed?.qrWidth).toBeGreaterThan(0);
    expect(printed?.html).toContain('@page { size: letter; margin: 0.5in; }');

    // The printed document is the previewed one; Chromium prints it on exactly one letter page.
    const html = (await page.locator('iframe[title="Flyer preview"]').getAttribute('srcdoc')) ?? '';
    // Both as the browser reads them (the printed one is read back from its window's document).
    const previewed = await page.evaluate(
      (source) => new DOMParser().parseFromString(source, 'text/html').querySelector('main')?.outerHTML ?? '',
      html,
    );
    expect(previewed).toContain('class="sheet simple"');
    expect(printed?.html).toContain(previewed);
    expect(await pdfPages(browser, html)).toEqual({ pages: 1, width: 612, height: 792 });

    // The QR code, rendered full size, decodes to PUBLIC_URL.
    const full = await browser.newPage();
    try {
      await full.setContent(html);
      expect(await decodeQr(full.getByRole('img', { name: /QR code/ }))).toBe(baseURL);
    } finally {
      await full.close();
    }
  });

  test('a member downloads the community flyer with local offers and wants; it opens offline', async ({
    gatedPage: page,
    signUp,
    baseURL,
    browser,
  }, testInfo) => {
    // Two members through the API, two accessibility scans, an offline context and two PDFs.
    test.slow();
    const place = remotePlace();
    const suffix = Math.random().toString(36).slice(2, 7);
    const neighbor = await createNeighbor(baseURL ?? '', place, suffix);
    await stubPrint(page);
    await signInNewMember(page, signUp, 'Flora');
    const profile = await page.request.put('/api/user/profile', {
      data: { ...place, maxTravelDistance: 25 },
    });
    expect(profile.ok()).toBe(true);
    await page.reload();

    await page.getByRole('button', { name: 'Community Flyer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Community Flyer' });
    const preview = page.frameLocator('iframe[title="Community flyer preview"]');
    await expect(preview.getByRole('heading', { name: 'Barterhood' })).toBeVisible();
    await expect(preview.getByRole('region', { name: 'Tear-off tabs' }).getByRole('listitem')).toHaveCount(
      10,
    );
    await expectAccessible(page);

    await dialog
      .getByRole('checkbox', { name: 'Include what our neighborhood offers and wants right now' })
      .check();
    await expect(preview.getByRole('heading', { name: 'Right Now in Our Neighborhood' })).toBeVisible();
    await expect(preview.getByText(`Nina offers Ladder ${suffix} (tools)`)).toBeVisible();
    await expect(preview.getByText(`Nina offers Bike repair ${suffix} (cycle service)`)).toBeVisible();
    await expect(preview.getByText(`Nina wants Sourdough starter ${suffix} (household)`)).toBeVisible();
    await expectAccessible(page);

    // Print opens the print window with the same flyer.
    const popupPromise = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Print' }).click();
    const printWindow = await popupPromise;
    if (!printWindow.isClosed()) await printWindow.waitForEvent('close');
    const [printed] = await printedFlyers(page);
    expect(printed?.html).toContain(`Ladder ${suffix}`);
    expect(printed?.qrWidth).toBeGreaterThan(0);

    // Download: one self-contained file.
    const downloadPromise = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe('barterhood-community-flyer.html');
    // Saved under its own name: opened from disk, the .html extension is what makes it a web page.
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    const html = readFileSync(file, 'utf8');
    for (const secret of ['Privatename', neighbor.email, String(place.latitude), 'Test Island']) {
      expect(html).not.toContain(secret);
    }

    // Opened with no network, it shows everything and asks for nothing.
    const offline = await browser.newContext({ offline: true });
    try {
      const flyer = await offline.newPage();
      const requests: string[] = [];
      flyer.on('request', (request) => {
        if (!/^(file|data):/.test(request.url())) requests.push(request.url());
      });
      await flyer.goto(pathToFileURL(file).href);
      await expect(flyer.getByRole('heading', { name: 'Barterhood' })).toBeVisible();
      await expect(flyer.getByText('Trade with Your Neighbors', { exact: true })).toBeVisible();
      const qr = flyer.getByRole('img', { name: `QR code for ${baseURL}` });
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      expect(await decodeQr(qr)).toBe(baseURL);
      const tabs = flyer.getByRole('region', { name: 'Tear-off tabs' }).getByRole('listitem');
      await expect(tabs).toHaveCount(10);
      for (const tab of await tabs.all()) await expect(tab).toContainText(baseURL ?? '');
      await expect(flyer.getByRole('heading', { name: 'Right Now in Our Neighborhood' })).toBeVisible();
      await expect(flyer.getByText(`Nina offers Ladder ${suffix} (tools)`)).toBeVisible();
      await expect(flyer.getByText(`Nina wants Sourdough starter ${suffix} (household)`)).toBeVisible();
      expect(requests).toEqual([]);
    } finally {
      await offline.close();
    }

    // Each variant prints on exactly one letter page.
    expect(await pdfPages(browser, html)).toEqual({ pages: 1, width: 612, height: 792 });
    await dialog.getByRole('checkbox', { name: /Include what our neighborhood/ }).uncheck();
    await expect(preview.getByRole('heading', { name: 'Right Now in Our Neighborhood' })).toHaveCount(0);
    const plain =
      (await page.locator('iframe[title="Community flyer preview"]').getAttribute('srcdoc')) ?? '';
    expect(await pdfPages(browser, plain)).toEqual({ pages: 1, width: 612, height: 792 });
    // Without the lists, no empty band opens above the tear-off tabs (issue 17): under an inch anywhere.
    expect(await largestBand(browser, plain)).toBeLessThan(96);
    expect(await largestBand(browser, html)).toBeLessThan(96);
  });
});
