// No zod here: the web app's initial bundle imports these codes.

/** Stable error codes the client may branch on. */
export const ERROR_CODES = {
  badRequest: 'BAD_REQUEST',
  validation: 'VALIDATION_FAILED',
  invalidJson: 'INVALID_JSON',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  gateClosed: 'GATE_CLOSED',
  crossOrigin: 'CROSS_ORIGIN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  contentNotAllowed: 'CONTENT_NOT_ALLOWED',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  rateLimited: 'RATE_LIMITED',
  databaseUnavailable: 'SERVICE_UNAVAILABLE',
  /** 503 from /readyz: the database answers but lacks migrations this server needs. */
  migrationsPending: 'MIGRATIONS_PENDING',
  /** 503: every place in the photo queue is taken; `Retry-After` says when one is likely free. */
  photoQueueFull: 'PHOTO_QUEUE_FULL',
  /** 503: this server holds as many live event streams as it may (EVENT_STREAMS_MAX); retry later. */
  eventStreamsFull: 'EVENT_STREAMS_FULL',
  /** 503: the photo store (STORAGE_URL's bucket) cannot be reached or refuses the server; retry later. */
  photoStorageUnavailable: 'PHOTO_STORAGE_UNAVAILABLE',
  internal: 'INTERNAL_ERROR',
  /** GET /api/feed/:feedName with a name other than barter-match, random-barter, everything. */
  feedNotFound: 'FEED_NOT_FOUND',
  /** POST /api/saved-items/:id on the member's own item. */
  cannotSaveOwnItem: 'CANNOT_SAVE_OWN_ITEM',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
