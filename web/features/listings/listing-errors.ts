import { ApiError } from '../../lib/api-client';

/** Spec section 8: the server refused the wording when its message contains "not appropriate". */
export function isContentNotAllowed(error: unknown): boolean {
  return error instanceof ApiError && /not appropriate/i.test(error.serverMessage ?? error.message);
}
