import { toast } from '../components/ui/use-toast';
import { ApiError, serverMessageOf } from './api-client';

/** Spec section 8: the server refused the wording when its message contains "not appropriate". */
export function isContentNotAllowed(error: unknown): boolean {
  return error instanceof ApiError && /not appropriate/i.test(error.serverMessage ?? error.message);
}

/**
 * The toast for a failed write of something the member typed: "Content Not Allowed" asking for
 * appropriate language in `field` when moderation refused it, else the server's sentence (or
 * `fallback`).
 */
export function toastWriteError(error: unknown, field: string, fallback: string): void {
  toast(
    isContentNotAllowed(error)
      ? {
          title: 'Content Not Allowed',
          description: `Please use appropriate language in your ${field}.`,
          variant: 'destructive',
        }
      : { title: 'Error', description: serverMessageOf(error, fallback), variant: 'destructive' },
  );
}
