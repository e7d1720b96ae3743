import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { chooseLocale } from './i18n';
import { isLocale, LOCALE_NAMES, LOCALES } from './locales';

/**
 * The language menu (footer and account, ADR 036). Each language is named in itself and marked with
 * its own `lang`, so a screen reader says "Español" in Spanish.
 */
export function LanguageSelect({ className }: { className?: string }) {
  const { i18n, t } = useLingui();
  const id = useId();
  return (
    <span className={className}>
      <label htmlFor={id} className="mr-2">
        {t`Language`}
      </label>
      <select
        id={id}
        value={i18n.locale}
        onChange={(event) => {
          const locale = event.target.value;
          if (isLocale(locale)) void chooseLocale(locale);
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </span>
  );
}
