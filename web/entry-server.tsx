/**
 * The server's render of a page (ADR 037): the same App, on the server, for the first screens a
 * member opens (the feed, the profile, a barter) and the landing page, so a phone paints them
 * before any script has run. Built by `vite build` into dist/server (vite.config.ts) and called by
 * server/plugins/ssr.ts, which passes the API through `app.inject` with the visitor's cookies.
 *
 * Each render runs alone (the caller serialises them): the language and the API transport are
 * module state here.
 */
import { i18n, type Messages } from '@lingui/core';
import { type DehydratedState, dehydrate, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { Router } from 'wouter';
import { App } from './app/app';
import { gateStatusQuery } from './features/gate/api/gate';
import type { Locale } from './i18n/locales';
import { apiTransport } from './lib/api-client';
import { userQuery } from './lib/get-user';
import { messages as en } from './locales/en.po';
import { messages as es } from './locales/es.po';

const CATALOGUES: Record<Locale, Messages> = { en, es };

export interface RenderRequest {
  /** The path and query string, e.g. "/barters/12?x=1". */
  url: string;
  locale: Locale;
  /** An API call made for the page (the server answers it through app.inject with the visitor's cookies). */
  fetch: typeof fetch;
  /** Aborts the render after this many milliseconds. */
  timeoutMs: number;
}

export interface RenderResult {
  html: string;
  state: DehydratedState;
  /** Errors of parts left to the browser. */
  errors: unknown[];
}

async function renderOnce(
  url: string,
  client: QueryClient,
  timeoutMs: number,
  errors: unknown[],
): Promise<string> {
  const [pathname, search = ''] = url.split('?', 2) as [string, string?];
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error(`The render took over ${timeoutMs} ms`)), timeoutMs);
  try {
    // A prerender waits for every lazy part and writes the page whole: no inline scripts.
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <Router ssrPath={pathname} ssrSearch={search}>
          <App queryClient={client} />
        </Router>
      </StrictMode>,
      {
        signal: abort.signal,
        // One piece: a large part is not moved to the end of the page with a script to put it back
        // (the page's content security policy allows no inline script).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onError(error) {
          // A part that failed is left to the browser (React renders it there); said, not hidden.
          errors.push(error);
        },
      },
    );
    let html = '';
    for await (const chunk of prelude)
      html += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (abort.signal.aborted) throw abort.signal.reason;
    return html;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Render until the page asks for no data it lacks: each pass fetches the queries the last one
 * started (at most three passes: the user, then the page's reads, then reads that depend on them).
 */
export async function render(request: RenderRequest, createClient: () => QueryClient): Promise<RenderResult> {
  i18n.loadAndActivate({ locale: request.locale, messages: CATALOGUES[request.locale] });
  apiTransport.fetch = request.fetch;
  const client = createClient();
  try {
    // The site gate asks from an effect, which a server's render does not run; every page asks who
    // is signed in first (a pass saved).
    await Promise.all([client.prefetchQuery(gateStatusQuery()), client.prefetchQuery(userQuery())]);
    let html = '';
    const errors: unknown[] = [];
    for (let pass = 0; pass < 4; pass++) {
      errors.length = 0;
      html = await renderOnce(request.url, client, request.timeoutMs, errors);
      const pending = client
        .getQueryCache()
        .getAll()
        .filter(
          (query) =>
            query.state.status === 'pending' &&
            query.state.fetchStatus === 'idle' &&
            (query.options as { enabled?: unknown }).enabled !== false,
        );
      if (pending.length === 0) break;
      await Promise.all(pending.map((query) => query.fetch().catch(() => undefined)));
    }
    return { html, state: dehydrate(client), errors };
  } finally {
    apiTransport.fetch = globalThis.fetch.bind(globalThis);
  }
}

export { UNPROMPTED_CLASSES } from './app/unprompted-classes';
export { createQueryClient } from './lib/query-client';
