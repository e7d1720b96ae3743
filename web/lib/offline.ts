import { msg } from '@lingui/core/macro';
import { useSyncExternalStore } from 'react';
import { i18n } from '../i18n/i18n';
import { API_CACHE_NAME } from './offline-caches';

/** Fired when a write is refused because the browser is offline (the page shows why, ADR 034). */
export const OFFLINE_REFUSED_EVENT = 'barterhood:offline-refused';

/** What the member is told when a write is refused offline. */
export const OFFLINE_REFUSAL = {
  title: msg`You are offline`,
  description: msg`Nothing was sent. Try again when you are back online.`,
} as const;

/** OFFLINE_REFUSAL in the active language (call when showing it). */
export function offlineRefusal(): { title: string; description: string } {
  return { title: i18n._(OFFLINE_REFUSAL.title), description: i18n._(OFFLINE_REFUSAL.description) };
}

function offlineRefusalSentence(): string {
  const { title, description } = offlineRefusal();
  return `${title}. ${description}`;
}

/** A write refused before it left the browser: nothing reached the server. */
export class OfflineError extends Error {
  override name = 'OfflineError';
  readonly code = 'OFFLINE';
  constructor() {
    super(offlineRefusalSentence());
  }
}

/** True when the browser knows it has no network (navigator.onLine is false). */
export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser is online, kept in step with its online and offline events. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => !isOffline(),
    () => true,
  );
}

/**
 * Forget the API reads kept for offline use (the service worker's cache), so the next member on this
 * device never sees the last one's feed, barters or messages. Called when a member signs in or out and
 * whenever the server says nobody is signed in. Without Cache Storage (insecure origins, tests) there
 * is nothing to forget.
 */
export async function clearOfflineData(): Promise<void> {
  try {
    if (typeof caches === 'undefined') return;
    await caches.delete(API_CACHE_NAME);
  } catch {
    // Storage refused (private mode): nothing was kept either.
  }
}
