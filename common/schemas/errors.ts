import { z } from 'zod';

/**
 * Every API error body (docs/contract.md): a human sentence and a stable code; some also name the
 * request's `field` it is about and a more precise `reason` (a moderation refusal: its reason, such as
 * `contact-details`, and the field that broke the Terms).
 */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  field: z.string().optional(),
  reason: z.string().optional(),
});

export type ApiError = z.infer<typeof apiErrorSchema>;
