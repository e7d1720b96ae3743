import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type I18n, type Messages, setupI18n } from '@lingui/core';
import type { formatter as PoFormatter } from '@lingui/format-po';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { isLocale, LOCALES, type Locale, SOURCE_LOCALE } from '#common/locales.ts';
import { runInPool } from '../workers/pool';
import { MAIL_TEXT, type MailMessage } from './mail-messages';

/**
 * E-mail in the member's language (ADR 060), from the web app's own catalogues: web/locales/<locale>.po
 * is read and compiled once (in the worker pool once the server listens, ADR 101, or at the first mail
 * in that language if that comes first), so the server and the web app speak from one source and the
 * build's catalogue checks cover the e-mail too.
 */

const LOCALES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/locales');

type PoCatalogue = Record<string, { translation?: string; message?: string }>;

let poFormatter: typeof PoFormatter | undefined;

/**
 * Lingui's PO reader, loaded at the first catalogue read (in the worker pool once the server
 * listens, or for a mail sent before that): with date-fns under it, about 50 ms of a start's main
 * thread that nothing at start used (ADR 122). The package stays in node_modules (a dependency).
 */
function poFormat(): ReturnType<typeof PoFormatter> {
  poFormatter ??= (createRequire(import.meta.url)('@lingui/format-po') as { formatter: typeof PoFormatter })
    .formatter;
  return poFormatter({});
}

/**
 * A language's catalogue, parsed and compiled (about 0.1 s of a thread each: the whole web app's
 * catalogue is parsed).
 */
export function readMailCatalogue(locale: Locale, dir = LOCALES_DIR): Messages {
  const catalogue = poFormat().parse(readFileSync(path.join(dir, `${locale}.po`), 'utf8'), {
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
  return instances.get(locale) ?? install(locale, readMailCatalogue(locale, dir));
}

function install(locale: Locale, messages: Messages): I18n {
  const i18n = setupI18n({ locale, messages: { [locale]: messages } });
  // A message the catalogue lacks is written in English (its id), never as the id of a hash.
  i18n.setMessagesCompiler(compileMessage);
  instances.set(locale, i18n);
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

let readingInPool: Promise<void> | null = null;

/**
 * Read every catalogue in the worker pool, once (ADR 101). The parse takes about a quarter of a
 * second of a thread; at start both cores are busy (the server's modules load while PGlite opens the
 * database), so the mail plugin starts this once the server listens. A mail sent before it ends reads
 * its language's catalogue itself (`mailI18n`).
 */
export function readMailCataloguesInPool(): Promise<void> {
  readingInPool ??= runInPool('readMailCatalogues', {}).then(
    (catalogues) => {
      for (const locale of LOCALES) if (!instances.has(locale)) install(locale, catalogues[locale]);
    },
    (error: unknown) => {
      // The next listening server tries again; meanwhile each mail reads its own language's.
      readingInPool = null;
      throw error;
    },
  );
  return readingInPool;
}

/** Every catalogue, parsed and compiled: the worker pool's task `readMailCatalogues`. */
export function readMailCatalogues(dir = LOCALES_DIR): Record<Locale, Messages> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, readMailCatalogue(locale, dir)])) as Record<
    Locale,
    Messages
  >;
}

/**
 * Whether every language's catalogue is there to read, before the server listens: a server without
 * them does not start (ADR 060). Throws naming the one missing.
 */
export function checkMailCatalogues(dir = LOCALES_DIR): void {
  for (const locale of LOCALES) {
    const file = path.join(dir, `${locale}.po`);
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      throw new Error(`the e-mail catalogue ${file} cannot be read (ADR 060)`, { cause: error });
    }
  }
}

/** The language to write to a member in: their own, else the asking request's, else English. */
export function mailLocale(memberLocale: string | null | undefined, fallback?: Locale): Locale {
  return isLocale(memberLocale) ? memberLocale : (fallback ?? SOURCE_LOCALE);
}
