// Confirm on the spot (issue 30, ADR 075): the code's rules both sides share, without zod (ADR 046:
// a page loads them without the schemas; common/schemas/hand-over-codes.ts builds on them).

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

/** The `code` query parameter a scanned QR opens the barter page with. */
export const HAND_OVER_CODE_PARAM = 'code';
