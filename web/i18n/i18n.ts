import { i18n, type Messages } from '@lingui/core';
import { detectLocale, type Locale, storeLocale } from './locales';

export { i18n };

/** Each catalogue is its own chunk, compiled from web/locales/*.po at build (ADR 036). */
const CATALOGUES: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en.po'),
  es: () => import('../locales/es.po'),
};

const listeners = new Set<(locale: Locale) => void>();

/** Load a language's catalogue and switch to it; the page's `lang` follows. */
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await CATALOGUES[locale]();
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
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

/** Start in the detected language (before the first render). */
export function startI18n(): Promise<void> {
  return activateLocale(detectLocale());
}

/** The active language. */
export function currentLocale(): Locale {
  return (i18n.locale || 'en') as Locale;
}
