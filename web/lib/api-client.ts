import { GATE_STORAGE_KEY } from '#common/constants.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import { translateKnown } from '../i18n/known-messages';
import { clearOfflineData, isOffline, OFFLINE_REFUSED_EVENT, OfflineError } from './offline';
import { CACHED_API_READS, READ_AGAIN_HEADER } from './offline-caches';

/**
 * A non-OK response (spec section 8): the message is "status: body text" (or the status text when the
 * body is empty). `code` and `serverMessage` are read from our JSON error shape when present.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly serverMessage: string | undefined,
    /** The Retry-After header in seconds, when the server sent one (429, 503). */
    readonly retryAfterSeconds?: number,
    /** The request's field the error is about, and a more precise reason, when the server says. */
    readonly details: { field?: string; reason?: string } = {},
  ) {
    super(message);
  }
}

/** Fired when the server says the site gate is closed, so the page can show the gate again. */
export const GATE_CLOSED_EVENT = 'barterhood:gate-closed';

/** Writes that sign a member in or out or end the account: the reads kept offline go with the session. */
/**
 * How calls reach the API: the browser's fetch; on the server's render of a page (web/entry-server.tsx),
 * the server itself with the visitor's cookies.
 */
export const apiTransport: { fetch: typeof fetch } = {
  fetch: (input, init) => fetch(input, init),
};

const SESSION_WRITES = /^\/api\/(?:auth\/|demo-login$|account\/sign-out-everywhere$|account$)/;

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  // Nobody is signed in (any more): no member's reads stay on this device (ADR 034).
  if (response.status === 401) await clearOfflineData();
  const text = (await response.text()) || response.statusText;
  let code: string | undefined;
  let serverMessage: string | undefined;
  const details: { field?: string; reason?: string } = {};
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown; field?: unknown; reason?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (typeof body.field === 'string') details.field = body.field;
    if (typeof body.reason === 'string') details.reason = body.reason;
    // The server writes English; a message the catalogue knows is shown in the member's language.
    if (typeof body.message === 'string') serverMessage = translateKnown(body.message);
  } catch {
    // Not our JSON error shape: the text stays the message.
  }
  if (response.status === 403 && code === ERROR_CODES.gateClosed) {
    window.localStorage.removeItem(GATE_STORAGE_KEY);
    window.dispatchEvent(new Event(GATE_CLOSED_EVENT));
  }
  const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
  throw new ApiError(
    response.status,
    `${response.status}: ${text}`,
    code,
    serverMessage,
    Number.isNaN(retryAfter) ? undefined : retryAfter,
    details,
  );
}

/**
 * A mutating call (spec section 7): method, URL and optional body, sent as JSON with a JSON
 * content type only when a body exists; cookies always included; no retries. A FormData body (an
 * item with its photo as a file, ADR 013) goes as multipart/form-data, its type set by the browser.
 */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const write = method !== 'GET' && method !== 'HEAD';
  // Offline, a write is refused before it is sent, never queued or lost silently (ADR 034): the page
  // says so (OFFLINE_REFUSED_EVENT) and the caller gets an error, so its form keeps what was typed.
  if (write && isOffline()) {
    window.dispatchEvent(new Event(OFFLINE_REFUSED_EVENT));
    throw new OfflineError();
  }
  const form = data instanceof FormData;
  const response = await apiTransport.fetch(url, {
    method,
    headers: data !== undefined && !form ? { 'Content-Type': 'application/json' } : {},
    body: form ? data : data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfNotOk(response);
  if (write && SESSION_WRITES.test(url.split('?', 1)[0] ?? '')) await clearOfflineData();
  return response;
}

/**
 * The reads the service worker keeps (CACHED_API_READS) this page has had an answer for, by whole URL.
 * Read again, such a URL carries READ_AGAIN_HEADER: the worker then waits for the network rather
 * than answer a slow read with its older copy, which would replace newer data on screen (the answer
 * of the member's own write among it, ADR 108). Bounded: a page open for days forgets and starts over.
 */
const answeredReads = new Set<string>();
const ANSWERED_READS_KEPT = 1_000;

/** The read's whole URL when the service worker keeps it, in a browser; otherwise null. */
function cachedReadUrl(url: string): string | null {
  if (typeof window === 'undefined') return null;
  const href = new URL(url, window.location.href).href;
  return CACHED_API_READS.test(href) ? href : null;
}

/** A read (spec section 7): GET with cookies, parsed as JSON. With `on401: 'returnNull'`, 401 yields null. */
export async function apiGet<T>(
  url: string,
  options: { on401?: 'throw' | 'returnNull' } = {},
): Promise<T | null> {
  const cached = cachedReadUrl(url);
  const response = await apiTransport.fetch(
    url,
    cached !== null && answeredReads.has(cached)
      ? { credentials: 'include', headers: { [READ_AGAIN_HEADER]: '1' } }
      : { credentials: 'include' },
  );
  if (options.on401 === 'returnNull' && response.status === 401) {
    // Read the body all the same: left unread, the request never finishes (the connection stays busy,
    // and Lighthouse waits 45 s for the page to go quiet, ADR 033).
    await response.text().catch(() => '');
    await clearOfflineData();
    return null;
  }
  await throwIfNotOk(response);
  const body = (await response.json()) as T;
  if (cached !== null) {
    if (answeredReads.size >= ANSWERED_READS_KEPT) answeredReads.clear();
    answeredReads.add(cached);
  }
  return body;
}

/** The server's sentence from an error, or `fallback` when there is none. */
export function serverMessageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}
