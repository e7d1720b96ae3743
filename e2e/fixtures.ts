import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  expect,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';
import { attachApiLogOnFailure, startApiLog, watchApi } from './support/api-log';

/** Console errors a journey may cause on purpose: the browser logs every non-OK fetch. */
const EXPECTED_FAILED_LOADS = [
  // Signed out, the current-user call answers 401 (spec section 7).
  /\/api\/auth\/user$/,
];

interface ConsoleErrors {
  /** Let console errors matching `pattern` pass: the browser logs requests a test makes fail on purpose. */
  allow(pattern: RegExp): void;
}

/** A member as registered: what the register form asks for. */
export interface NewMember {
  firstName: string;
  lastName?: string;
  email: string;
  password: string;
}

/** Where a member trades, as the profile form saves it. */
export interface TradingArea {
  location: string;
  latitude: number;
  longitude: number;
  maxTravelDistance?: number;
}

/** A member signed in in a browser of their own: its page, and the API with that browser's cookies. */
export interface SignedInMember {
  page: Page;
  /** The browser context's request client: what it sends carries the member's session. */
  api: APIRequestContext;
}

/** The `signUp` fixture's function, for a spec's helpers. */
export type SignUp = Fixtures['signUp'];

interface Fixtures {
  /** Every journey keeps its browsers' API log and prints it when it fails (e2e/support/api-log.ts). */
  apiLog: undefined;
  /** Console errors and uncaught exceptions fail the test unless allowed. */
  consoleErrors: ConsoleErrors;
  /** A page that has already passed the site gate (cookie and local-storage flag). */
  gatedPage: Page;
  /**
   * Register a new member through the API in the gated page's browser, which is then signed in (the
   * register form's request, so the session cookie is the form's); with an area, save it as the
   * profile form does. Returns the browser's request client, for the member's own setup calls.
   * For journeys that sign in to get started; journeys of signing in or up use the forms.
   */
  signUp: (member: NewMember, area?: TradingArea) => Promise<APIRequestContext>;
  /**
   * Two members, each registered and signed in through the API in a browser of their own (its own
   * household address, the gate passed), for journeys between two members. Their pages' console
   * errors fail the test as the main page's do. The contexts close after the test.
   */
  twoMembers: (
    first: NewMember & { area?: TradingArea },
    second: NewMember & { area?: TradingArea },
  ) => Promise<[SignedInMember, SignedInMember]>;
  /**
   * A page in a browser of its own, signed out and not past the gate (another device, where a shared
   * link is opened), from a household of its own. Its console errors fail the test, but for the
   * gate's refused reads (403) before the password. The context closes after the test.
   */
  signedOutBrowser: () => Promise<Page>;
}

/**
 * A page the server drew (ADR 037) shows its buttons before the app has taken it over; a person
 * needs a moment to find one, a test does not. Before each action on such a page, every page waits
 * for the app's mark (web/lib/app-started.ts): whether the test opened it (`goto`, `reload`) or the
 * app did (signing in and out load the home page anew). Pages of contexts a test makes get it too.
 */
const NOT_STARTED = 'html:not([data-app="started"]):has(#page-data)';
const handled = new WeakSet<Page>();
async function waitForAppStart(page: Page): Promise<void> {
  if (handled.has(page)) return;
  handled.add(page);
  const notStarted = page.locator(NOT_STARTED);
  await page.addLocatorHandler(
    notStarted,
    async () => {
      // A page that never starts (an error) is acted on as it is, after one wait.
      await untilAppStarted(page).catch(() => page.removeLocatorHandler(notStarted));
    },
    { noWaitAfter: true },
  );
}

/**
 * Wait until the page the server drew has been taken over by the app (for what is not a locator
 * action, which waits by itself): a fake clock installed while the page is still hydrating swaps
 * Date and the timers under React's feet, and it once reported a hydration mismatch (React #418).
 */
export async function untilAppStarted(page: Page): Promise<void> {
  await page.waitForFunction((selector) => !document.querySelector(selector), NOT_STARTED, {
    timeout: 15_000,
  });
}

/** For a page without scripts (a test of what the server draws alone): act at once. */
export async function withoutAppStart(page: Page): Promise<void> {
  await page.removeLocatorHandler(page.locator(NOT_STARTED));
}
let contextsPatched = false;
/** The pages a journey opened beside its own, named in its API log ('browser 2', ...). */
let pagesOpened = 1;
function patchNewPages(page: Page): void {
  if (contextsPatched) return;
  contextsPatched = true;
  const contextProto = Object.getPrototypeOf(page.context()) as BrowserContext;
  const newPage = contextProto.newPage;
  contextProto.newPage = async function (this: BrowserContext) {
    const created = await newPage.call(this);
    pagesOpened++;
    watchApi(created, `browser ${pagesOpened}`);
    await waitForAppStart(created);
    return created;
  };
}

/**
 * A new household's address, as the proxy in front of the server names it (X-Forwarded-For; the
 * journeys' server trusts the proxy on 127.0.0.1, playwright.config.ts): each journey, and each
 * neighbour it sets up through the API, comes from its own address, as members do, so the shipped
 * per-address limits (the gate, sign-up, sign-in) count as they would in a town (ADR 051).
 * 10.W.x.y: W the worker, so two workers never share one.
 */
let households = 0;
export function householdAddress(): string {
  households++;
  const worker = test.info().workerIndex % 256;
  return `10.${worker}.${Math.floor(households / 254) % 256}.${(households % 254) + 1}`;
}

/** Journeys fail on console errors (docs/architecture.md, habit 13), except the expected 401s above. */
export const test = base.extend<Fixtures>({
  apiLog: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's needs from this pattern.
    async ({}, use, testInfo) => {
      startApiLog();
      await use(undefined);
      await attachApiLogOnFailure(testInfo);
    },
    { auto: true },
  ],
  // The journey's own household: its pages, their requests, and the contexts it opens.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': householdAddress() });
  },
  page: async ({ page }, use) => {
    pagesOpened = 1;
    watchApi(page, 'browser 1');
    patchNewPages(page);
    await waitForAppStart(page);
    await use(page);
  },
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    const allowed: RegExp[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const url = message.location().url;
      if (
        message.text().startsWith('Failed to load resource') &&
        EXPECTED_FAILED_LOADS.some((re) => re.test(url))
      ) {
        return;
      }
      errors.push(`${message.text()} (${url})`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    await use({ allow: (pattern) => allowed.push(pattern) });
    const unexpected = errors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
    expect(unexpected, 'console errors during the test').toEqual([]);
  },
  gatedPage: async ({ page, consoleErrors: _errors }, use) => {
    await passGate(page);
    await use(page);
  },
  signUp: async ({ gatedPage }, use) => {
    await use((member, area) => registerThroughApi(gatedPage.request, member, area));
  },
  twoMembers: async ({ browser, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    const errors: string[] = [];
    await use(async (...members) => {
      const signedIn: SignedInMember[] = [];
      for (const { area, ...member } of members) {
        // Each in a browser of its own, from a household of its own, as two neighbours are.
        const context = await browser.newContext({
          baseURL,
          extraHTTPHeaders: { 'x-forwarded-for': householdAddress() },
        });
        contexts.push(context);
        const page = await context.newPage();
        await waitForAppStart(page);
        watchConsoleErrors(page, errors, `${member.firstName}: `);
        await passGate(page);
        await registerThroughApi(context.request, member, area);
        signedIn.push({ page, api: context.request });
      }
      return signedIn as [SignedInMember, SignedInMember];
    });
    for (const context of contexts) await context.close();
    expect(errors, 'console errors in the members’ browsers').toEqual([]);
  },
  signedOutBrowser: async ({ browser, baseURL }, use) => {
    const contexts: BrowserContext[] = [];
    const errors: string[] = [];
    await use(async () => {
      const context = await browser.newContext({
        baseURL,
        extraHTTPHeaders: { 'x-forwarded-for': householdAddress() },
      });
      contexts.push(context);
      const page = await context.newPage();
      await waitForAppStart(page);
      watchConsoleErrors(page, errors, 'signed out: ');
      return page;
    });
    for (const context of contexts) await context.close();
    expect(
      errors.filter((error) => !/status of 403/.test(error)),
      'console errors in the signed-out browser',
    ).toEqual([]);
  },
});

/** Note a page's console errors and uncaught exceptions, but for the expected failed loads. */
function watchConsoleErrors(page: Page, errors: string[], prefix: string): void {
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const url = message.location().url;
    if (
      message.text().startsWith('Failed to load resource') &&
      EXPECTED_FAILED_LOADS.some((re) => re.test(url))
    ) {
      return;
    }
    errors.push(`${prefix}${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => errors.push(`${prefix}uncaught: ${error.message}`));
}

/**
 * POST /api/auth/register as the register form sends it (which signs the member in), from `api`,
 * whose cookies are a browser's when it is a context's or page's request; then the area, if any,
 * as the profile form saves it. The shipped per-address limits apply: one sign-up per journey's
 * household (REGISTER_RATE_LIMIT allows 10 a minute).
 */
async function registerThroughApi(
  api: APIRequestContext,
  member: NewMember,
  area?: TradingArea,
): Promise<APIRequestContext> {
  const registered = await api.post('/api/auth/register', { data: member });
  expect(registered.status(), await registered.text()).toBe(201);
  if (area) {
    const saved = await api.put('/api/user/profile', { data: { maxTravelDistance: 25, ...area } });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  return api;
}

/**
 * Sign `page`'s browser in as an existing member through the API the login form uses
 * (POST /api/auth/login, from the browser's own cookies and household: the session and known-device
 * cookies land where the form's would, and the per-address and per-account limits count it). For
 * journeys that sign in to get started; the page is not moved.
 */
export async function signInThroughApi(
  page: Page,
  member: { email: string; password: string },
): Promise<void> {
  const response = await page.request.post('/api/auth/login', {
    data: { email: member.email, password: member.password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * The toast region (Radix labels it "Notifications (F8)"); toasts are looked up inside it. Found by
 * CSS, not role: while a modal dialog is open the region is aria-hidden (Radix announces toasts
 * through its own live region), yet the toast is still on screen.
 */
export function toasts(page: Page) {
  return page.locator('[role="region"][aria-label^="Notifications"]');
}

/** Pass the site gate the way the app does: the server sets the cookie, the page keeps the flag. */
export async function passGate(page: Page, password = 'barter'): Promise<void> {
  const response = await page.request.post('/api/verify-password', { data: { password } });
  expect(response.ok()).toBe(true);
  await page.addInitScript(() => window.localStorage.setItem('site-access', 'granted'));
}

/** No serious or critical axe violations on what the page shows now. */
export async function expectAccessible(page: Page): Promise<void> {
  // Colours caught mid-transition (a button fading from disabled to enabled) would be measured wrong.
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    'serious or critical accessibility violations',
  ).toEqual([]);
}

export type { Page };
export { expect };

/** A unique e-mail address for one test run of one project. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * Register a member through the API from a separate client, so the browser under test stays signed out.
 */
export async function createMember(
  baseURL: string,
  member: { firstName: string; lastName?: string; email: string; password: string },
): Promise<void> {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': householdAddress() },
  });
  try {
    expect((await api.post('/api/verify-password', { data: { password: 'barter' } })).ok()).toBe(true);
    const response = await api.post('/api/auth/register', { data: member });
    expect(response.status(), await response.text()).toBe(201);
  } finally {
    await api.dispose();
  }
}

/**
 * A member's own API client: passes the gate, registers (which signs in) and, when given, saves a
 * location. Dispose it when done. Lets a journey set up neighbours without driving their browsers.
 */
export async function memberApi(
  baseURL: string,
  member: { firstName: string; lastName?: string; email: string; password: string },
  location?: { location: string; latitude: number; longitude: number; maxTravelDistance?: number },
) {
  const api = await playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': householdAddress() },
  });
  expect((await api.post('/api/verify-password', { data: { password: 'barter' } })).ok()).toBe(true);
  const registered = await api.post('/api/auth/register', { data: member });
  expect(registered.status(), await registered.text()).toBe(201);
  if (location) {
    const saved = await api.put('/api/user/profile', { data: { maxTravelDistance: 25, ...location } });
    expect(saved.status(), await saved.text()).toBe(200);
  }
  return api;
}

/** A good listed through a member's API client (201, or the journey fails with the answer): its id. */
export async function listItem(api: APIRequestContext, title: string, category: string): Promise<number> {
  const response = await api.post('/api/items', { data: { title, category, description: 'In good shape.' } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/**
 * Through the members' API clients, the step before a hand-over: `from` lists one item and proposes
 * it for one `to` lists, and `to` accepts. The accepted barter's id and the two items' ids.
 */
export async function acceptedBarter(
  from: APIRequestContext,
  to: APIRequestContext,
  offered: { title: string; category: string },
  requested: { title: string; category: string },
): Promise<{ barterId: number; offeredId: number; requestedId: number }> {
  const offeredId = await listItem(from, offered.title, offered.category);
  const requestedId = await listItem(to, requested.title, requested.category);
  const proposed = await from.post('/api/barter-requests', {
    data: { offeredItemIds: [offeredId], requestedItemIds: [requestedId] },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const barterId = ((await proposed.json()) as { id: number }).id;
  const accepted = await to.post(`/api/barter-requests/${barterId}/accept`);
  expect(accepted.status(), await accepted.text()).toBe(200);
  return { barterId, offeredId, requestedId };
}

/** Sign a member in through the login form. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
}

/**
 * Nothing runs off to the side: the page is no wider than the layout, and the layout is `width` (a
 * phone's browser widens its layout to fit a page that overflows, so innerWidth is checked too;
 * ADR 031).
 */
export async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  const measured = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(measured.scrollWidth, 'page width').toBeLessThanOrEqual(measured.innerWidth);
  expect(measured.innerWidth, 'layout width').toBe(width);
}

/** A desktop page checked at a 390 px phone's width, then given its own width back. */
export async function expectFitsPhone(page: Page): Promise<void> {
  const { width, height } = page.viewportSize() ?? { width: 1280, height: 844 };
  await page.setViewportSize({ width: 390, height });
  await expectNoSidewaysScroll(page, 390);
  await page.setViewportSize({ width, height });
}

/** The spots' grid: rows 3 degrees of latitude apart, columns 5 of longitude, within 60 degrees of the equator. */
const SPOT_ROWS = 40;
const SPOT_COLUMNS = 68;
/** Spots this worker has handed out. */
let spotsTaken = 0;

/**
 * A spot on the map no other journey of this run uses, for a journey's members to live around: the
 * middle of a grid cell of its own, 3 degrees of latitude by 5 of longitude (at least 170 miles
 * from any other spot between 60 degrees south and north, where every journey's members stay within
 * 40 miles of their spot). The cell is the worker's (Playwright never reuses a worker's index in a
 * run) and this worker's count, so two journeys never share one. Random spots in one 40-degree box
 * met: a CI run's feed journey counted another journey's item 10.5 miles away.
 */
export function ownSpot(): { latitude: number; longitude: number } {
  const worker = Number(process.env.TEST_WORKER_INDEX ?? 0);
  const cell = (worker * 100 + spotsTaken++) % (SPOT_ROWS * SPOT_COLUMNS);
  return {
    latitude: -58.5 + Math.floor(cell / SPOT_COLUMNS) * 3,
    longitude: -167.5 + (cell % SPOT_COLUMNS) * 5,
  };
}

/** Miles to degrees of latitude (for placing neighbors a known distance apart). */
export const milesNorth = (miles: number) => miles / 69.05;

/** Ann, and Ben a mile north of her, somewhere of their own (the hand-over journeys' pair). */
export function annAndBen(
  password = 'maple lantern 42',
): [NewMember & { area: TradingArea }, NewMember & { area: TradingArea }] {
  const origin = ownSpot();
  return [
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
  ];
}

/** Tomorrow at `hour`:00 as the page's datetime-local input holds it (the browser's time zone). */
export const tomorrowAt = (page: Page, hour: number) =>
  page.evaluate((h) => {
    const date = new Date(Date.now() + 24 * 3_600_000);
    date.setHours(h, 0, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(h)}:00`;
  }, hour);

/** Marks the page so a test can tell later that it was never reloaded (see `stillSamePage`). */
export const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { __notReloaded: true }));
/** True while the page marked by `markPage` has not been reloaded or left. */
export const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded === true);

/**
 * The newest mail to `address` whose subject matches, as the e2e server's SMTP server received it
 * (e2e/support/server.ts); waits for it. Its links, in order.
 */
export async function mailTo(
  address: string,
  subject: RegExp,
  timeoutMs = 10_000,
): Promise<{ subject: string; text: string; links: string[] }> {
  const dir = path.resolve(process.env.E2E_DATA_DIR ?? '.data-e2e', 'e2e-mail');
  const started = Date.now();
  for (;;) {
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith('.json'))
          .sort()
          .reverse()
      : [];
    for (const file of files) {
      let raw: string;
      try {
        raw = readFileSync(path.join(dir, file), 'utf8');
        JSON.parse(raw);
      } catch {
        continue; // still being written: read it on the next pass
      }
      const mail = JSON.parse(raw) as {
        to: string[];
        subject: string;
        text: string;
      };
      if (mail.to.includes(address.toLowerCase()) && subject.test(mail.subject)) {
        return { ...mail, links: mail.text.match(/https?:\/\/\S+/g) ?? [] };
      }
    }
    if (Date.now() - started > timeoutMs) throw new Error(`no mail "${subject}" to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
