/**
 * Numbers that arrive as text (query parameters, amounts typed into a form). `Number()` and
 * `z.coerce.number()` read far more than decimals: "0x10" is 16, "0b11" is 3, "" and " " are 0 and
 * "Infinity" is a number. The rule here:
 * - whole numbers (limit, offset, seed, ids) are decimal digits with an optional sign: "20", "-1".
 *   "1e3", "2.0", "0x10" and blank text are refused (400), since no client writes them;
 * - other numbers (radius, amounts, coordinates) are decimals, optionally in exponent form, which
 *   `String()` writes for very small or very large numbers and a number input accepts: "12.5", ".5",
 *   "1e3" (1000), "1e-7". Hex, binary, octal, "Infinity" and blank text are refused.
 */
import { z } from 'zod';

/** Decimal text: digits with an optional sign, fraction and exponent. */
export const DECIMAL_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
/** Whole-number text: decimal digits with an optional sign. */
export const INTEGER_TEXT = /^[-+]?\d+$/;

/**
 * A whole-number query parameter from `min` to `max`: decimal digits only ("1e3" and "0x10" are
 * refused with "`name` must be a whole number"); out of range: "`name` must be between min and max".
 */
export function wholeNumberParam(name: string, min: number, max: number) {
  const notWhole = `${name} must be a whole number`;
  const range = `${name} must be between ${min} and ${max}`;
  return z
    .string({ error: notWhole })
    .trim()
    .regex(INTEGER_TEXT, notWhole)
    .transform(Number)
    .pipe(z.number().min(min, range).max(max, range).int(notWhole));
}

/** A number query parameter in decimal (or exponent) form; anything else gets `message`. */
export function decimalParam(message: string) {
  return z
    .string({ error: message })
    .trim()
    .regex(DECIMAL_TEXT, message)
    .transform(Number)
    .pipe(z.number({ error: message }));
}
