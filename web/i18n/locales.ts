/**
 * The languages Barterhood speaks (ADR 036) and how one is chosen: the member's own choice (footer or
 * account, kept in this browser), else the browser's preferred languages, else English.
 */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language named in itself, as a language menu shows it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };

export const SOURCE_LOCALE: Locale = 'en';

const STORAGE_KEY = 'barterhood.locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first supported language among the browser's, by its primary subtag ("es-MX" is Spanish). */
export function localeFromLanguages(languages: readonly string[]): Locale | null {
  for (const language of languages) {
    const primary = language.trim().toLowerCase().split(/[-_]/)[0];
    if (isLocale(primary)) return primary;
  }
  return null;
}

export function storedLocale(): Locale | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}

export function storeLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private modes may refuse storage: the choice then lasts until the page is closed.
  }
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
