import type { Page, Request, Response, TestInfo } from '@playwright/test';

/**
 * What the browsers of a journey asked the API and were answered, kept while it runs and printed
 * with its report when it fails: every write (with its status and how long it took), every read
 * answered 400 or more or slower than SLOW_READ_MS, and every request that failed outright. A
 * journey that fails on a button still on screen then says in CI's log whether its request was
 * refused (and with what), slow, or never sent; the toast the member saw starts there.
 */
const SLOW_READ_MS = 2_000;

interface Entry {
  at: number;
  line: string;
}

let entries: Entry[] = [];
let testStart = Date.now();
const watched = new WeakSet<Page>();

/** Start a journey's log (the fixture calls it before each test). */
export function startApiLog(): void {
  entries = [];
  testStart = Date.now();
}

const seconds = (ms: number) => `+${(ms / 1000).toFixed(1)} s`;

function apiPath(request: Request): string | null {
  const url = new URL(request.url());
  return url.pathname.startsWith('/api/') ? `${url.pathname}${url.search}` : null;
}

async function answered(label: string, response: Response): Promise<void> {
  const request = response.request();
  const where = apiPath(request);
  if (!where) return;
  const status = response.status();
  // Until the answer's headers arrived: what the member waited before anything could change.
  const timing = request.timing();
  const took = timing.responseStart >= 0 ? Math.round(timing.responseStart) : -1;
  const write = request.method() !== 'GET' && request.method() !== 'HEAD';
  if (!write && status < 400 && took < SLOW_READ_MS) return;
  const entry = {
    at: timing.startTime,
    line: `${seconds(timing.startTime - testStart)} ${label}: ${request.method()} ${where} -> ${status} after ${took} ms`,
  };
  entries.push(entry);
  if (status >= 400) {
    const body = await response.text().catch(() => '');
    entry.line += ` ${body.slice(0, 300)}`;
  }
}

/** Keep `page`'s API requests in the journey's log, under `label` (once per page). */
export function watchApi(page: Page, label: string): void {
  if (watched.has(page)) return;
  watched.add(page);
  page.on('response', (response) => void answered(label, response));
  page.on('requestfailed', (request) => {
    const where = apiPath(request);
    // A read the app cancelled (a newer one replaced it) or the event stream a page left: not trouble.
    if (!where || request.failure()?.errorText === 'net::ERR_ABORTED') return;
    const at = Date.now();
    entries.push({
      at,
      line: `${seconds(at - testStart)} ${label}: ${request.method()} ${where} failed: ${request.failure()?.errorText}`,
    });
  });
}

/** Attach the log to a failed journey's report (printed by the list reporter beside the error). */
export async function attachApiLogOnFailure(testInfo: TestInfo): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus || entries.length === 0) return;
  const lines = [...entries].sort((a, b) => a.at - b.at).map((entry) => entry.line);
  await testInfo.attach('API writes, refusals, slow reads and failed requests', {
    body: lines.join('\n'),
    contentType: 'text/plain',
  });
}
