import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_FAILED_EVENT, ChunkLoadError } from '../lib/import-chunk';
import { messages as english } from '../locales/en.po';
import { activateLocale, i18n, withMessages } from './i18n';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  i18n.loadAndActivate({ locale: 'en', messages: english });
});

describe('withMessages (ADR 052)', () => {
  it('a screen whose messages did not arrive, twice, is a part of the app missing: Reload, not a blank', async () => {
    // A built page: the first screen's messages, then the rest (ADR 036), which the busy server refuses.
    vi.stubEnv('PROD', true);
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        return url.endsWith('-first.json')
          ? new Response(JSON.stringify({ messages: english }), { status: 200 })
          : new Response('', { status: 503 });
      }),
    );
    await activateLocale('en', { firstOnly: true });
    await vi.waitFor(() => expect(asked.filter((url) => url.endsWith('-rest.json'))).toHaveLength(2));
    const heard = vi.fn();
    window.addEventListener(CHUNK_FAILED_EVENT, heard);
    try {
      const error = await withMessages(async () => ({ default: 'a screen' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChunkLoadError);
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(CHUNK_FAILED_EVENT, heard);
    }
  });
});
