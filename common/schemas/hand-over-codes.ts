import { z } from 'zod';
import {
  HAND_OVER_CODE_INPUT_MAX_LENGTH,
  HAND_OVER_CODE_MESSAGES,
  isHandOverCodeShape,
  normalizeHandOverCode,
} from '../hand-over-code-rules';
import { textField } from './text';

// The plain values and rules live in hand-over-code-rules.ts, free of zod, so pages load them
// without it (ADR 046); they are exported here too for the server.
export {
  formatHandOverCode,
  HAND_OVER_CODE_ALPHABET,
  HAND_OVER_CODE_ERROR_CODES,
  HAND_OVER_CODE_INPUT_MAX_LENGTH,
  HAND_OVER_CODE_LENGTH,
  HAND_OVER_CODE_LOCK_MINUTES,
  HAND_OVER_CODE_MAX_WRONG,
  HAND_OVER_CODE_MESSAGES,
  HAND_OVER_CODE_PARAM,
  isHandOverCodeShape,
  normalizeHandOverCode,
} from '../hand-over-code-rules';

// Confirm on the spot (issue 30, ADR 075): each member of an accepted barter has a short code on
// their barter page; the other member entering it completes the hand-over there and then.

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
