import { isLocale, LOCALE_COOKIE, type Locale, localeFromLanguages, SOURCE_LOCALE } from '#common/locales.ts';

export { isLocale, LOCALES, type Locale } from '#common/locales.ts';

/**
 * How the language is chosen (ADR 036): the member's own choice (footer or account, kept in this
 * browser), else the browser's preferred languages, else English.
 */

/** Each language named in itself, as a language menu shows it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };

const STORAGE_KEY = 'barterhood.locale';

export function storedLocale(): Locale | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

/** Remember the choice in this browser, and tell the server (it preloads the catalogue with the page). */
export function storeLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private modes may refuse storage: the choice then lasts until the page is closed.
  }
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari.
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** The language to start in. */
export function detectLocale(): Locale {
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return storedLocale() ?? localeFromLanguages(languages.filter(Boolean)) ?? SOURCE_LOCALE;
}

/** Miles where the locale's country drives in miles (English here means the United States), else km. */
export function usesMiles(locale: string): boolean {
  return locale === 'en' || locale.startsWith('en-');
}
