import { z } from 'zod';

/** Every API error body (docs/contract.md): a human sentence and a stable code. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
});

export type ApiError = z.infer<typeof apiErrorSchema>;
