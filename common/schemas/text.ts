/**
 * Every string a client sends (body fields, query text, path params) is built with `textField`, so
 * each one is checked the same way at the edge, in the browser's form and on the server alike
 * (issue 12: NUL bytes reached PostgreSQL, which refuses them in text, and answered 500).
 *
 * The rule. These characters have no place in anything a member types, and are REFUSED with a 400
 * whose message names the field ("Title contains characters that are not allowed"):
 * - C0 and C1 control characters, U+0000-U+001F and U+007F-U+009F; NUL above all. Multi-line fields
 *   (descriptions) still allow tab, line feed and carriage return, which a textarea produces.
 * - Unpaired UTF-16 surrogates (U+D800-U+DFFF outside a pair): they have no UTF-8 form, so the
 *   database driver silently stores U+FFFD instead of what was sent.
 * - Bidirectional embedding, override and isolate controls, U+202A-U+202E and U+2066-U+2069: they
 *   make text display in another order than it is stored ("Trojan Source"), so a title or name could
 *   read as something else. The marks U+200E, U+200F and U+061C stay allowed; right-to-left writing
 *   uses them.
 *
 * Refused, never stripped: stripping changes what the member typed without telling them, and lets two
 * different inputs (a password, an e-mail) silently become the same one. A form never produces these
 * characters, so only pasted text or a hand-made request meets the refusal.
 *
 * Response schemas describe what the server sends and stay plain `z.string()`; so does
 * `listingIdParamsSchema`, whose digits-only pattern already refuses all of this.
 *
 * Order of checks: white space is trimmed first (unless the field keeps text as typed, like
 * passwords), then characters are checked, then the caller's length and format checks run, so blank
 * text still gets the field's own "is required" message.
 */
import { z } from 'zod';

// In the browser the page's CSP has no 'unsafe-eval': zod's JIT would probe `new Function` when its
// first object schema is built, and Chrome reports the refusal (Lighthouse, ADR 033). Every schema
// module builds on this one, so this runs first; the server keeps the JIT.
if (typeof document !== 'undefined') z.config({ jitless: true });

// With the u flag, [\ud800-\udfff] matches only a surrogate that is not half of a pair: a pair is
// read as one code point above U+FFFF, outside the class.
const SINGLE_LINE = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
// The same without tab (U+0009), line feed (U+000A) and carriage return (U+000D).
const MULTI_LINE =
  '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff';
const NOT_ALLOWED_SINGLE_LINE = new RegExp(`[${SINGLE_LINE}]`, 'u');
const NOT_ALLOWED_MULTI_LINE = new RegExp(`[${MULTI_LINE}]`, 'u');

export interface TextFieldOptions {
  /** Allow tab, line feed and carriage return (descriptions). */
  multiline?: boolean;
  /** Trim white space before the checks (default true). Passwords are taken exactly as typed. */
  trim?: boolean;
  /** Message when the value is missing or not a string. */
  error?: string;
  /**
   * A photo field: of a data URL only the header (up to the first comma) is checked. The base64
   * payload is left to the server's strict decoder (server/photos/photo-input.ts), which refuses any
   * character outside the alphabet; a scan of a 13 MB payload here would hold the event loop for
   * tens of milliseconds. Any other text (the served photo URL) is checked whole.
   */
  dataUrl?: boolean;
}

/** True when `text` holds a character the text rule refuses (see the file's comment). */
export function hasDisallowedCharacters(text: string, multiline = false): boolean {
  return (multiline ? NOT_ALLOWED_MULTI_LINE : NOT_ALLOWED_SINGLE_LINE).test(text);
}

/** The message of a refused character, naming the field as the form labels it. */
export function disallowedCharactersMessage(label: string): string {
  return `${label} contains characters that are not allowed`;
}

/**
 * A string field: trimmed (unless `trim: false`), then refused when it holds control, unpaired
 * surrogate or direction-override characters. Chain the field's own `.min()`, `.max()` and formats.
 */
export function textField(label: string, options: TextFieldOptions = {}) {
  const { multiline = false, trim = true, error, dataUrl = false } = options;
  const base = error === undefined ? z.string() : z.string({ error });
  const checked = (value: string) =>
    dataUrl && value.startsWith('data:') ? value.slice(0, value.indexOf(',') + 1 || undefined) : value;
  return (trim ? base.trim() : base).refine(
    (value) => !hasDisallowedCharacters(checked(value), multiline),
    disallowedCharactersMessage(label),
  );
}
