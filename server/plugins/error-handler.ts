import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES } from '#common/error-codes.ts';
import type { ApiError } from '#common/schemas/errors.ts';
import { HttpError, isDatabaseUnavailable, isTransactionConflict } from '../errors';

/** Fastify's own client-error codes, mapped to our stable codes and plain sentences. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: ERROR_CODES.invalidJson,
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: ERROR_CODES.invalidJson,
    message: 'The request body is empty but its content type is JSON.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: ERROR_CODES.payloadTooLarge,
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: ERROR_CODES.unsupportedMediaType,
    message: 'Unsupported content type; send JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: ERROR_CODES.badRequest,
    message: 'The Content-Length header does not match the body.',
  },
  FST_ERR_BAD_URL: {
    code: ERROR_CODES.badRequest,
    message: 'The address is not valid: it has a broken percent-encoding.',
  },
};

function validationMessage(error: FastifyError): string {
  const issues = (error.validation ?? []) as Array<{
    keyword?: string;
    instancePath?: string;
    message?: string;
    params?: {
      keys?: string[];
      issue?: { path?: PropertyKey[]; message?: string; code?: string; keys?: string[] };
    };
  }>;
  const first = issues[0];
  const issue = first?.params?.issue;
  if (issue?.code === 'unrecognized_keys' && issue.keys?.length) {
    return `Unknown field: ${issue.keys.join(', ')}.`;
  }
  // fastify-type-provider-zod 7 spreads the zod issue into params, with its code as the keyword.
  if (first?.keyword === 'unrecognized_keys' && first.params?.keys?.length) {
    return `Unknown field: ${first.params.keys.join(', ')}.`;
  }
  const field = issue?.path?.length
    ? issue.path.join('.')
    : first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  const message = issue?.message ?? first?.message ?? 'Invalid input';
  const where =
    error.validationContext && error.validationContext !== 'body' ? ` in ${error.validationContext}` : '';
  return field
    ? `${field}: ${message}${where}.`.replace('..', '.')
    : `${message}${where}.`.replace('..', '.');
}

function statusText(status: number): string {
  if (status === 413) return 'The request body is too large.';
  if (status === 404) return 'Not found.';
  if (status === 405) return 'Method not allowed.';
  if (status === 408) return 'The request took too long.';
  if (status === 415) return 'Unsupported content type.';
  return 'The request could not be processed.';
}

/** Turn any error into `{ message, code }` with a fitting status; internals never reach the body. */
export function toApiError(error: FastifyError | Error): { status: number; body: ApiError } {
  if (error instanceof HttpError) {
    const { field, reason } = error;
    return {
      status: error.statusCode,
      body: {
        message: error.message,
        code: error.code,
        ...(field === undefined ? {} : { field }),
        ...(reason === undefined ? {} : { reason }),
      },
    };
  }
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError) || fastifyError.validation) {
    return { status: 400, body: { message: validationMessage(fastifyError), code: ERROR_CODES.validation } };
  }
  if (isResponseSerializationError(fastifyError)) {
    return {
      status: 500,
      body: { message: 'Something went wrong on our side.', code: ERROR_CODES.internal },
    };
  }
  const known = fastifyError.code ? FASTIFY_CLIENT_ERRORS[fastifyError.code] : undefined;
  if (known) {
    const status = fastifyError.statusCode && fastifyError.statusCode >= 400 ? fastifyError.statusCode : 400;
    return { status, body: known };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 429) {
    return {
      status,
      body: {
        message: 'Too many attempts. Please wait a minute and try again.',
        code: ERROR_CODES.rateLimited,
      },
    };
  }
  if (status >= 400 && status < 500) {
    // Fastify and its plugins use 4xx only for client mistakes; their messages are safe but terse.
    const code =
      status === 413
        ? ERROR_CODES.payloadTooLarge
        : status === 404
          ? ERROR_CODES.notFound
          : ERROR_CODES.badRequest;
    const message =
      fastifyError.code?.startsWith('FST_') || !fastifyError.message
        ? statusText(status)
        : fastifyError.message;
    return { status, body: { message, code } };
  }
  if (isDatabaseUnavailable(error) || isTransactionConflict(error)) {
    return {
      status: 503,
      body: {
        message: 'The service is temporarily unavailable. Please try again shortly.',
        code: ERROR_CODES.databaseUnavailable,
      },
    };
  }
  return { status: 500, body: { message: 'Something went wrong on our side.', code: ERROR_CODES.internal } };
}

/** The one error handler and the JSON 404 for unknown API routes. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toApiError(error);
    if (status >= 500) {
      request.log.error({ err: error, reqId: request.id }, 'request failed');
    } else {
      request.log.info({ status, code: body.code }, 'request refused');
    }
    // An error that knows how long the wait is says so (the photo queue); other 503s say 5 seconds.
    const retryAfter = error instanceof HttpError ? error.retryAfterSeconds : undefined;
    if (retryAfter !== undefined || status === 503) reply.header('retry-after', String(retryAfter ?? 5));
    return reply.status(status).type('application/json; charset=utf-8').send(body);
  });
}

/**
 * Errors the router raises before any route matched (a broken percent-encoding in the path), in the
 * same `{ message, code }` shape as every other error: Fastify's `frameworkErrors` option.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toApiError(error);
  request.log.info({ status, code: body.code }, 'request refused');
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** The JSON 404 for unknown routes and missing files. */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({
    message: `No route for ${request.method} ${request.url.split('?', 1)[0]}.`,
    code: ERROR_CODES.notFound,
  });
}
