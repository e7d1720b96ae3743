import { z } from 'zod';

/** Every API error body (docs/contract.md): a human sentence and a stable code. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
});

export type ApiError = z.infer<typeof apiErrorSchema>;

/** Stable error codes the client may branch on. */
export const ERROR_CODES = {
  badRequest: 'BAD_REQUEST',
  validation: 'VALIDATION_FAILED',
  invalidJson: 'INVALID_JSON',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  gateClosed: 'GATE_CLOSED',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  rateLimited: 'RATE_LIMITED',
  databaseUnavailable: 'SERVICE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
