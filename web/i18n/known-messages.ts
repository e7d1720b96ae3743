import { i18n } from './i18n';

/**
 * Texts the server and the shared schemas write in English (error messages, validation messages,
 * category names) are shown in the active language by looking the English text up in the catalogue:
 * web/i18n/known-messages.generated.ts lists each under its own text as an explicit id, so
 * `npm run i18n:extract` puts it in the catalogues (ADR 036). A text not listed (one with a name or a
 * number from the request written into it) stays as the server wrote it.
 */
export function translateKnown(text: string): string {
  if (!text || !i18n.locale || !Object.hasOwn(i18n.messages, text)) return text;
  return i18n._(text);
}
