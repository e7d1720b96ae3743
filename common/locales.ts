/**
 * The languages Barterhood speaks (ADR 036), shared by the web app (which one to show) and the server
 * (which catalogue to preload with the page).
 */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export const SOURCE_LOCALE: Locale = 'en';

/** Set by the web app when a member chooses a language, read by the server when it sends the page. */
export const LOCALE_COOKIE = 'barterhood_locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The first supported language among `languages`, by its primary subtag ("es-MX" is Spanish). */
export function localeFromLanguages(languages: readonly string[]): Locale | null {
  for (const language of languages) {
    const primary = language.trim().toLowerCase().split(/[-_]/)[0];
    if (isLocale(primary)) return primary;
  }
  return null;
}

/**
 * The languages of an Accept-Language header, most wanted first ("es-MX,es;q=0.9,en;q=0.8");
 * q=0 means "not this one". At most 20 are read.
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const weight = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isNaN(weight) ? 0 : weight, index };
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
}
