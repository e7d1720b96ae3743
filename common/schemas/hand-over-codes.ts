import { z } from 'zod';
import { textField } from './text';

// Confirm on the spot (issue 30, ADR 075): each member of an accepted barter has a short code on
// their barter page; the other member entering it completes the hand-over there and then.

/** 32 characters that read aloud and type apart: no 0/O, no 1/I. */
export const HAND_OVER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const HAND_OVER_CODE_LENGTH = 6;
/** Wrong codes a member may enter on one hand-over before their code entry there is locked. */
export const HAND_OVER_CODE_MAX_WRONG = 5;
/** How long that lock lasts. */
export const HAND_OVER_CODE_LOCK_MINUTES = 15;
/** Longest text taken as a code (spaces and dashes allowed between its characters). */
export const HAND_OVER_CODE_INPUT_MAX_LENGTH = 20;

export const HAND_OVER_CODE_ERROR_CODES = {
  /** 400: not the other member's code for this hand-over (the answer says how many tries are left). */
  wrong: 'HAND_OVER_CODE_WRONG',
  /** 400: the member entered the code their own page shows. */
  own: 'HAND_OVER_CODE_OWN',
  /** 429: too many wrong codes on this hand-over; Retry-After says when entry opens again. */
  locked: 'HAND_OVER_CODE_LOCKED',
} as const;

export const HAND_OVER_CODE_MESSAGES = {
  required: 'Enter the code shown on their phone',
  shape: `A hand-over code is ${HAND_OVER_CODE_LENGTH} letters and digits`,
} as const;

/** A code as typed ("k7m 4qx", "K7M-4QX") in the form it is stored: upper case, no spaces or dashes. */
export function normalizeHandOverCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '');
}

/** A code shown for reading aloud: two groups of three ("K7M 4QX"). */
export function formatHandOverCode(code: string): string {
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

const CODE_SHAPE = new RegExp(`^[${HAND_OVER_CODE_ALPHABET}]{${HAND_OVER_CODE_LENGTH}}$`);

/** True for a normalized text that could be a code. */
export const isHandOverCodeShape = (code: string): boolean => CODE_SHAPE.test(code);

/** POST /api/barter-requests/:id/hand-over-code: the code the other member shows. */
export const enterHandOverCodeSchema = z.strictObject({
  code: textField('Code', { error: HAND_OVER_CODE_MESSAGES.required })
    .min(1, HAND_OVER_CODE_MESSAGES.required)
    .max(HAND_OVER_CODE_INPUT_MAX_LENGTH, HAND_OVER_CODE_MESSAGES.shape)
    .transform(normalizeHandOverCode)
    .refine(isHandOverCodeShape, HAND_OVER_CODE_MESSAGES.shape),
});

export type EnterHandOverCodeInput = z.input<typeof enterHandOverCodeSchema>;

/** GET /api/barter-requests/:id/hand-over-code: the viewer's own code, to show the other member. */
export const handOverCodeSchema = z.object({
  code: z.string(),
  /** The barter's page with the code: what the QR holds, so a phone's camera opens it. */
  link: z.string(),
  /** The QR of `link`, as SVG markup. */
  qrSvg: z.string(),
});

export type HandOverCode = z.infer<typeof handOverCodeSchema>;

/** The `code` query parameter a scanned QR opens the barter page with. */
export const HAND_OVER_CODE_PARAM = 'code';
