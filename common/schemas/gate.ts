import { z } from 'zod';
import { textField } from './text';

/** POST /api/verify-password: the site gate (spec section 5: non-blank to submit). */
export const verifyPasswordSchema = z.strictObject({
  password: textField('Password', { trim: false })
    .max(200)
    .refine((value) => value.trim().length > 0, 'Password is required'),
});

export type VerifyPasswordInput = z.infer<typeof verifyPasswordSchema>;

export const verifyPasswordResponseSchema = z.object({ ok: z.literal(true) });

/** GET /api/gate: whether the gate is on and whether this browser has passed it. */
export const gateStatusSchema = z.object({
  enabled: z.boolean(),
  granted: z.boolean(),
});

export type GateStatus = z.infer<typeof gateStatusSchema>;
