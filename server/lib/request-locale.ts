import type { FastifyRequest } from 'fastify';
import {
  isLocale,
  LOCALE_COOKIE,
  type Locale,
  localeFromLanguages,
  parseAcceptLanguage,
  SOURCE_LOCALE,
} from '#common/locales.ts';

/**
 * The language a request is answered in (ADR 036): the member's choice (the web app's cookie), else
 * the browser's languages, else English. Pages (plugins/web.ts) and mail (mail/mail-i18n.ts) alike.
 */
export function requestLocale(request: Pick<FastifyRequest, 'cookies' | 'headers'>): Locale {
  const chosen = request.cookies?.[LOCALE_COOKIE];
  if (isLocale(chosen)) return chosen;
  return localeFromLanguages(parseAcceptLanguage(request.headers['accept-language'])) ?? SOURCE_LOCALE;
}
