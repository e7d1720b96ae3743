import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type I18n, type Messages, setupI18n } from '@lingui/core';
import { formatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { isLocale, LOCALES, type Locale, SOURCE_LOCALE } from '#common/locales.ts';
import { MAIL_TEXT, type MailMessage } from './mail-messages';

/**
 * E-mail in the member's language (ADR 060), from the web app's own catalogues: web/locales/<locale>.po
 * is read and compiled once, at the first mail in that language, so the server and the web app speak
 * from one source and the build's catalogue checks cover the e-mail too.
 */

const LOCALES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/locales');

type PoCatalogue = Record<string, { translation?: string; message?: string }>;

function loadMessages(locale: Locale, dir: string): Messages {
  const catalogue = formatter({}).parse(readFileSync(path.join(dir, `${locale}.po`), 'utf8'), {
    locale,
    sourceLocale: SOURCE_LOCALE,
    filename: `${locale}.po`,
  }) as PoCatalogue;
  const messages: Messages = {};
  for (const [id, entry] of Object.entries(catalogue)) {
    const text = entry.translation || (locale === SOURCE_LOCALE ? (entry.message ?? id) : '');
    if (text) messages[id] = compileMessage(text);
  }
  return messages;
}

const instances = new Map<Locale, I18n>();

/** The Lingui instance of a language (the catalogues in `dir`, web/locales by default). */
export function mailI18n(locale: Locale, dir = LOCALES_DIR): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: loadMessages(locale, dir) } });
    // A message the catalogue lacks is written in English (its id), never as the id of a hash.
    i18n.setMessagesCompiler(compileMessage);
    instances.set(locale, i18n);
  }
  return i18n;
}

/** A function that writes one mail's sentences in `locale`. */
export type MailTranslate = (message: MailMessage, values?: Record<string, unknown>) => string;

/** "Hi Ann," / "Hola, Ann:" (ADR 060). */
export function mailGreeting(tr: MailTranslate, firstName: string | null): string {
  const name = firstName?.trim();
  return name ? tr(MAIL_TEXT.greeting, { name }) : tr(MAIL_TEXT.greetingNeighbor);
}

export function mailTranslator(locale: Locale): MailTranslate {
  const i18n = mailI18n(locale);
  return (message, values) => i18n._(message.id, values, { message: message.message });
}

/** Read every catalogue now (at start), so the first mail does not wait for them. */
export function loadMailCatalogues(): void {
  for (const locale of LOCALES) mailI18n(locale);
}

/** The language to write to a member in: their own, else the asking request's, else English. */
export function mailLocale(memberLocale: string | null | undefined, fallback?: Locale): Locale {
  return isLocale(memberLocale) ? memberLocale : (fallback ?? SOURCE_LOCALE);
}
