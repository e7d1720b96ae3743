import { i18n, type Messages } from '@lingui/core';
import { trackLoad } from '../lib/app-started';
import { chunkFailed, importChunk } from '../lib/import-chunk';
import { detectLocale, isLocale, type Locale, storeLocale } from './locales';

export { i18n };

type Catalogue = { messages: Messages };

/**
 * A language's messages (ADR 036). A build serves each catalogue in two parts made by
 * scripts/split-catalogues.ts: `first` (what the entry and the feed page use, loaded before the
 * first render) and `rest` (every other screen's, loaded right after it; `withMessages` makes the
 * lazily loaded screens wait for it). `vite serve` and the tests import the whole `.po` file.
 */
const DEV_CATALOGUES: Record<Locale, () => Promise<Catalogue>> = {
  en: () => importChunk(() => import('../locales/en.po')),
  es: () => importChunk(() => import('../locales/es.po')),
};

async function fetchPart(locale: Locale, part: 'first' | 'rest'): Promise<Messages> {
  const response = await fetch(`/locales/${locale}-${part}.json`, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`The ${locale} messages did not load (${response.status})`);
  return ((await response.json()) as Catalogue).messages;
}

let rest: Promise<void> = Promise.resolve();
const listeners = new Set<(locale: Locale) => void>();

function activated(locale: Locale): void {
  // Only when it changes: setting <html lang> restyles the whole page (a page the server drew has it
  // already), a long task of its own on a phone.
  if (document.documentElement.lang !== locale) document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
}

/**
 * Load a language and switch to it; the page's `lang` follows. With `firstOnly` (the page's start), it
 * switches once the first screens' messages are in and the rest follow (`messagesReady`); otherwise
 * (a member's choice, on a screen already shown) once all are, in one switch.
 */
export async function activateLocale(locale: Locale, { firstOnly = false } = {}): Promise<void> {
  if (!import.meta.env.PROD) {
    const { messages } = await DEV_CATALOGUES[locale]();
    i18n.loadAndActivate({ locale, messages });
    activated(locale);
    return;
  }
  const restPart = fetchPart(locale, 'rest');
  restPart.catch(() => undefined);
  if (!firstOnly) {
    // A member switching on a page already shown: its screen may use the rest, which merged quietly
    // after the switch's render would leave as message ids. Both parts, then one switch.
    const [first, more] = await Promise.all([fetchPart(locale, 'first'), restPart]);
    i18n.loadAndActivate({ locale, messages: { ...first, ...more } });
    rest = Promise.resolve();
    activated(locale);
    return;
  }
  const messages = await fetchPart(locale, 'first');
  i18n.loadAndActivate({ locale, messages });
  // The rest joins the same object quietly: `i18n.load` would render every text on screen again,
  // though none shown yet uses them (the screens that do wait for them).
  const merge = (more: Messages) => {
    Object.assign(messages, more);
  };
  rest = restPart.then(merge);
  // A retry on the next lazy screen if the rest failed to load (e.g. the connection dropped).
  rest.catch(() => {
    rest = fetchPart(locale, 'rest').then(merge);
    // Failing again, it is the lazy screens' to report (withMessages), not an unhandled rejection.
    rest.catch(() => undefined);
  });
  activated(locale);
}

/** Resolves once the active language's messages beyond the first screens are loaded. */
export function messagesReady(): Promise<void> {
  return rest;
}

/**
 * A lazily loaded module that shows text: `load` is `() => import('...')`, asked for through
 * `importChunk` (one more try, then the Reload message, ADR 052); it resolves with the module once the
 * messages it uses are loaded too. Every `import()` of a screen or dialog goes through it
 * (web/i18n/lazy-imports.test.ts).
 */
export function withMessages<T>(
  load: () => Promise<T>,
  options?: { quiet?: boolean; background?: boolean },
): Promise<T> {
  // Messages that did not arrive (asked for twice, activateLocale) are a part of the app missing too.
  const messages = messagesReady().catch((error: unknown) => {
    throw chunkFailed(undefined, error, options);
  });
  const loaded = Promise.all([importChunk(load, options), messages]).then(([module]) => module);
  // A part loaded in the background (the service worker's registration) is not one the screen waits
  // for: the page's started mark (web/lib/app-started.ts) does not count it.
  return options?.background ? loaded : trackLoad(loaded);
}

/** The member chose a language: remember it in this browser and switch. */
export async function chooseLocale(locale: Locale): Promise<void> {
  storeLocale(locale);
  await activateLocale(locale);
}

export function onLocaleChange(listener: (locale: Locale) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Start in the detected language (or the one the server rendered the page in): the first screens'
 * messages load before the first render.
 */
export function startI18n(rendered?: string): Promise<void> {
  return activateLocale(isLocale(rendered) ? rendered : detectLocale(), { firstOnly: true });
}

/** The active language. */
export function currentLocale(): Locale {
  return (i18n.locale || 'en') as Locale;
}
