import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentType, lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkFailedNotice, RouteErrorBoundary } from '../components/layout/route-error-boundary';
import { withMessages } from '../i18n/i18n';
import { renderWithProviders } from '../testing/render';
import { CHUNK_FAILED_EVENT, ChunkLoadError, chunkTransport, importChunk } from './import-chunk';

/** What Chromium says when a module script's request fails (a 503, a dropped connection). */
const chromiumFailure = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`);

let chunk = 0;
/** A chunk URL of this page's origin, new per test (the helper remembers second tries by URL). */
const chunkUrl = () => `${location.origin}/assets/account-menu-${++chunk}abc.js`;

const realTransport = { ...chunkTransport };
let importUrl: ReturnType<typeof vi.fn<(url: string) => Promise<unknown>>>;
let reload: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  importUrl = vi.fn<(url: string) => Promise<unknown>>();
  reload = vi.fn<() => void>();
  Object.assign(chunkTransport, { importUrl, reload });
});
afterEach(() => Object.assign(chunkTransport, realTransport));

describe('importChunk (ADR 052)', () => {
  it('asks for a chunk that failed once more, by its URL with a fresh query, and resolves with the module', async () => {
    const url = chunkUrl();
    const load = vi.fn(() => Promise.reject(chromiumFailure(url)));
    const module = { AccountMenu: 'the menu' };
    importUrl.mockResolvedValue(module);

    await expect(importChunk(load)).resolves.toBe(module);
    expect(load).toHaveBeenCalledTimes(1);
    expect(importUrl).toHaveBeenCalledTimes(1);
    const retried = new URL(importUrl.mock.calls[0]?.[0] ?? '');
    expect(`${retried.origin}${retried.pathname}`).toBe(url);
    expect(retried.searchParams.get('retry')).toMatch(/^[0-9a-z]+$/);

    // Asked for again later (the browser still holds the failed original), the same module, no new request.
    await expect(importChunk(load)).resolves.toBe(module);
    expect(importUrl).toHaveBeenCalledTimes(1);
  });

  it('a chunk that loads the first time is asked for once', async () => {
    const load = vi.fn(async () => ({ ok: true }));
    await expect(importChunk(load)).resolves.toEqual({ ok: true });
    expect(load).toHaveBeenCalledTimes(1);
    expect(importUrl).not.toHaveBeenCalled();
  });

  it('without a URL in the error (Safari), asks for the same import again', async () => {
    const load = vi
      .fn<() => Promise<{ ok: boolean }>>()
      .mockRejectedValueOnce(new TypeError('Importing a module script failed.'))
      .mockResolvedValueOnce({ ok: true });
    await expect(importChunk(load)).resolves.toEqual({ ok: true });
    expect(load).toHaveBeenCalledTimes(2);
    expect(importUrl).not.toHaveBeenCalled();
  });

  it('never asks another origin for a script named in an error', async () => {
    const load = vi.fn(() => Promise.reject(chromiumFailure('https://elsewhere.example/assets/x.js')));
    await expect(importChunk(load)).rejects.toBeInstanceOf(ChunkLoadError);
    expect(importUrl).not.toHaveBeenCalled();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('failing twice, rejects with a ChunkLoadError and tells the page, unless quiet', async () => {
    const url = chunkUrl();
    importUrl.mockRejectedValue(chromiumFailure(`${url}?retry=1`));
    const heard = vi.fn();
    window.addEventListener(CHUNK_FAILED_EVENT, heard);
    try {
      const error = await importChunk(() => Promise.reject(chromiumFailure(url))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChunkLoadError);
      expect((error as ChunkLoadError).url).toBe(url);
      expect(heard).toHaveBeenCalledTimes(1);

      await expect(
        importChunk(() => Promise.reject(chromiumFailure(url)), { quiet: true }),
      ).rejects.toBeInstanceOf(ChunkLoadError);
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(CHUNK_FAILED_EVENT, heard);
    }
  });
});

/** A screen loaded lazily, as the router's pages are; its first request fails, as a browser's would. */
function lazyScreen(url: string) {
  return lazy(() => withMessages<{ default: ComponentType }>(() => Promise.reject(chromiumFailure(url))));
}

function renderRoute(Screen: ReturnType<typeof lazyScreen>) {
  return renderWithProviders(
    <RouteErrorBoundary location="/">
      <Suspense fallback={<p>Loading...</p>}>
        <Screen />
      </Suspense>
    </RouteErrorBoundary>,
  );
}

describe('a lazily loaded screen whose chunk fails', () => {
  it('shows up after one failure, by itself', async () => {
    const url = chunkUrl();
    importUrl.mockResolvedValue({ default: () => <h1>Account</h1> });
    renderRoute(lazyScreen(url));
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeVisible();
    expect(importUrl).toHaveBeenCalledTimes(1);
  });

  it('failing twice, says so with a Reload button that reloads the page, instead of a blank page', async () => {
    const url = chunkUrl();
    importUrl.mockRejectedValue(chromiumFailure(`${url}?retry=1`));
    // React reports the error the boundary caught on the console, and the boundary notes it.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.mocked(console.error).mockImplementation(() => undefined);
    try {
      renderRoute(lazyScreen(url));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('This page did not load');
      expect(alert).toHaveTextContent('Reload the page to get it.');
      await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
      expect(reload).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith(
        'A screen failed to draw',
        expect.any(ChunkLoadError),
        expect.any(String),
      );
    } finally {
      warn.mockRestore();
      vi.mocked(console.error).mockReset();
    }
  });

  it('shown in place of the screen, is not shown a second time over the page', async () => {
    const url = chunkUrl();
    importUrl.mockRejectedValue(chromiumFailure(`${url}?retry=1`));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.mocked(console.error).mockImplementation(() => undefined);
    const Screen = lazyScreen(url);
    try {
      renderWithProviders(
        <>
          <ChunkFailedNotice />
          <RouteErrorBoundary location="/">
            <Suspense fallback={<p>Loading...</p>}>
              <Screen />
            </Suspense>
          </RouteErrorBoundary>
        </>,
      );
      expect(await screen.findByRole('heading', { name: 'This page did not load' })).toBeVisible();
      await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
      expect(screen.getAllByRole('button', { name: 'Reload' })).toHaveLength(1);
    } finally {
      warn.mockRestore();
      vi.mocked(console.error).mockReset();
    }
  });

  it('outside a screen (a form check, the QR code), a notice with Reload over the page', async () => {
    const url = chunkUrl();
    importUrl.mockRejectedValue(chromiumFailure(`${url}?retry=1`));
    renderWithProviders(<ChunkFailedNotice />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await expect(importChunk(() => Promise.reject(chromiumFailure(url)))).rejects.toBeInstanceOf(
      ChunkLoadError,
    );
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('A part of Barterhood could not be downloaded');
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
