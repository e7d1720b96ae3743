import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type BrowserContext,
  test as base,
  expect,
  type Page,
  request as playwrightRequest,
} from '@playwright/test';

/** Console errors a journey may cause on purpose: the browser logs every non-OK fetch. */
const EXPECTED_FAILED_LOADS = [
  // Signed out, the current-user call answers 401 (spec section 7).
  /\/api\/auth\/user$/,
];

interface ConsoleErrors {
  /** Let console errors matching `pattern` pass: the browser logs requests a test makes fail on purpose. */
  allow(pattern: RegExp): void;
}

interface Fixtures {
  /** Console errors and uncaught exceptions fail the test unless allowed. */
  consoleErrors: ConsoleErrors;
  /** A page that has already passed the site gate (cookie and local-storage flag). */
  gatedPage: Page;
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
      await page
        .waitForFunction((selector) => !document.querySelector(selector), NOT_STARTED, { timeout: 15_000 })
        // A page that never starts (an error) is acted on as it is, after one wait.
        .catch(() => page.removeLocatorHandler(notStarted));
    },
    { noWaitAfter: true },
  );
}

/** For a page without scripts (a test of what the server draws alone): act at once. */
export async function withoutAppStart(page: Page): Promise<void> {
  await page.removeLocatorHandler(page.locator(NOT_STARTED));
}
let contextsPatched = false;
function patchNewPages(page: Page): void {
  if (contextsPatched) return;
  contextsPatched = true;
  const contextProto = Object.getPrototypeOf(page.context()) as BrowserContext;
  const newPage = contextProto.newPage;
  contextProto.newPage = async function (this: BrowserContext) {
    const created = await newPage.call(this);
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
  // The journey's own household: its pages, their requests, and the contexts it opens.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': householdAddress() });
  },
  page: async ({ page }, use) => {
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
});

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

/** Sign a member in through the login form. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
}

/** Miles to degrees of latitude (for placing neighbors a known distance apart). */
export const milesNorth = (miles: number) => miles / 69.05;

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
