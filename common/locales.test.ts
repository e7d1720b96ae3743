import { describe, expect, it } from 'vitest';
import { isLocale, localeFromLanguages, parseAcceptLanguage } from './locales';

describe('choosing a language', () => {
  it('takes the first supported language by its primary subtag', () => {
    expect(localeFromLanguages(['es-MX', 'en-US'])).toBe('es');
    expect(localeFromLanguages(['fr-FR', 'en-GB', 'es'])).toBe('en');
    expect(localeFromLanguages(['ES_ar'])).toBe('es');
    expect(localeFromLanguages(['de', 'fr'])).toBeNull();
    expect(localeFromLanguages([])).toBeNull();
  });

  it('reads Accept-Language by weight, dropping q=0 and wildcards', () => {
    expect(parseAcceptLanguage('fr-CA, es;q=0.5, en;q=0.7')).toEqual(['fr-CA', 'en', 'es']);
    expect(parseAcceptLanguage('es;q=0, en')).toEqual(['en']);
    expect(parseAcceptLanguage('*, es;q=0.1')).toEqual(['es']);
    expect(parseAcceptLanguage('en;q=abc, es')).toEqual(['es']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage(`${'xx,'.repeat(10_000)}es`)).toHaveLength(20);
  });

  it('knows only its own languages', () => {
    expect(isLocale('es')).toBe(true);
    expect(isLocale('es-MX')).toBe(false);
    expect(isLocale('__proto__')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
