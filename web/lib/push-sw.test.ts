import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

/*
 * The service worker's push handlers (web/public/push-sw.js, ADR 087, 090), loaded as the browser
 * loads them (a classic script run against `self`) with a fake `self`: what a push shows, and where
 * a click on it goes. The journeys' browser runs without service workers, so this is where they run.
 */
const SOURCE = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public/push-sw.js'),
  'utf8',
);
const ORIGIN = 'https://barterhood.example';

interface FakeWindow {
  url: string;
  focus: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
}

function worker(windows: FakeWindow[] = []) {
  const listeners = new Map<string, (event: unknown) => void>();
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: {
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async () => null),
    },
  };
  runInNewContext(SOURCE, { self, URL });
  /** Dispatch an event the way the browser does, and wait for what it asked to be waited for. */
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waited: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (promise: Promise<unknown>) => waited.push(promise) });
    expect(waited).toHaveLength(1);
    await Promise.all(waited);
  };
  const push = (data: unknown) =>
    dispatch('push', {
      data:
        data === undefined
          ? null
          : {
              json: () => (typeof data === 'string' ? JSON.parse(data) : data),
            },
    });
  const click = (url: unknown) => {
    const notification = { data: { url }, close: vi.fn() };
    return { notification, done: dispatch('notificationclick', { notification }) };
  };
  return { self, push, click };
}

const window = (url: string): FakeWindow => ({
  url,
  focus: vi.fn(async () => undefined),
  navigate: vi.fn(async () => undefined),
});

describe('push-sw.js', () => {
  it('shows the push’s title and body with its tag, and keeps its link for the click', async () => {
    const sw = worker();
    await sw.push({
      title: 'Barterhood',
      body: 'Ann A. proposed a barter',
      url: '/barters/7',
      tag: 'notification-9',
    });
    expect(sw.self.registration.showNotification).toHaveBeenCalledWith('Barterhood', {
      body: 'Ann A. proposed a barter',
      tag: 'notification-9',
      icon: '/icons/icon-192.png',
      data: { url: '/barters/7' },
    });
  });

  it('shows something sensible for a push without data, with data that is not JSON, or with fields of the wrong type', async () => {
    for (const data of [undefined, '{not json', { title: 3, body: ['x'], url: { href: '/' }, tag: 1 }]) {
      const sw = worker();
      await sw.push(data);
      expect(sw.self.registration.showNotification, JSON.stringify(data)).toHaveBeenCalledWith('Barterhood', {
        body: '',
        tag: undefined,
        icon: '/icons/icon-192.png',
        data: { url: '/' },
      });
    }
  });

  it('a click focuses an open Barterhood window and takes it to the link', async () => {
    const other = window('https://elsewhere.example/');
    const open = window(`${ORIGIN}/profile`);
    const sw = worker([other, open]);
    const { notification, done } = sw.click('/items/12');
    await done;
    expect(notification.close).toHaveBeenCalled();
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/items/12`);
    expect(other.focus).not.toHaveBeenCalled();
    expect(sw.self.clients.openWindow).not.toHaveBeenCalled();
  });

  it('a click opens a window when none is open, and never another site', async () => {
    const sw = worker();
    await sw.click('/barters/3').done;
    expect(sw.self.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/barters/3`);
    for (const hostile of ['https://evil.example/phish', '//evil.example/x', 'javascript:alert(1)']) {
      const fresh = worker();
      await fresh.click(hostile).done;
      const [opened] = fresh.self.clients.openWindow.mock.calls.at(-1) as unknown as [string];
      expect(new URL(opened).origin, hostile).toBe(ORIGIN);
    }
    // No link at all: the home page.
    const bare = worker();
    await bare.click(undefined).done;
    expect(bare.self.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/`);
  });
});
