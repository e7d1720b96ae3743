import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordRequests, server } from '#web/testing/server.ts';
import { CHUNK_FAILED_EVENT, ChunkLoadError } from '../lib/import-chunk';
import { messages as english } from '../locales/en.po';
import { activateLocale, i18n, withMessages } from './i18n';

afterEach(() => {
  vi.unstubAllEnvs();
  i18n.loadAndActivate({ locale: 'en', messages: english });
});

describe('withMessages (ADR 052)', () => {
  it('a screen whose messages did not arrive, twice, is a part of the app missing: Reload, not a blank', async () => {
    // A built page: the first screen's messages, then the rest (ADR 036), which the busy server refuses.
    vi.stubEnv('PROD', true);
    server.use(
      http.get('/locales/en-first.json', () => HttpResponse.json({ messages: english })),
      http.get('/locales/en-rest.json', () => new HttpResponse(null, { status: 503 })),
    );
    const sent = recordRequests();
    await activateLocale('en', { firstOnly: true });
    await vi.waitFor(() => expect(sent.to('GET /locales/en-rest.json')).toHaveLength(2));
    expect(sent.to('GET /locales/en-first.json')).toHaveLength(1);
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
