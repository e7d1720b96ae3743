import { t } from '@lingui/core/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountSession,
  ChangeEmailInput,
  ChangePasswordInput,
  DeleteAccountInput,
  PasswordResetInput,
} from '#common/schemas/auth.ts';
import { toast } from '#web/components/ui/use-toast.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { apiGet, apiRequest, serverMessageOf } from '#web/lib/api-client.ts';
import { accountKeys, authKeys } from '#web/lib/query-keys.ts';

/** The server's sentence from a 2xx answer that carries one, in the active language when known. */
async function messageOf(response: Response): Promise<string> {
  return translateKnown(((await response.json()) as { message: string }).message);
}

/** POST /api/auth/password-reset: the same answer whether or not an account uses the address. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async (email: string) =>
      messageOf(await apiRequest('POST', '/api/auth/password-reset', { email })),
  });
}

/** POST /api/auth/password-reset/confirm: signs this browser in; then a full navigation home. */
export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: PasswordResetInput) => {
      await apiRequest('POST', '/api/auth/password-reset/confirm', input);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: authKeys.user });
      window.location.assign('/');
    },
  });
}

/** POST /api/auth/verify-email; the current user is read again (its banner goes). */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) => {
      const response = await apiRequest('POST', '/api/auth/verify-email', { token });
      return ((await response.json()) as { email: string }).email;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.user }),
  });
}

/** POST /api/account/verify-email/resend, with its toast either way (banner and Account tab alike). */
/**
 * POST /api/account/verify-email/resend, and a toast saying how it went. A plain function, so the
 * banner above every member screen loads this code only when a member asks (the feed's first screen
 * does not carry it).
 */
export async function resendVerification(): Promise<void> {
  try {
    const message = messageOf(await apiRequest('POST', '/api/account/verify-email/resend'));
    toast({ title: t`Link sent`, description: message });
  } catch (error) {
    toast({
      title: t`Could not send the link`,
      description: serverMessageOf(error, t`Please try again.`),
      variant: 'destructive',
    });
  }
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}

/** PUT /api/account/password: the other sessions end, so their list is read again. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) =>
      messageOf(await apiRequest('PUT', '/api/account/password', input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/** PUT /api/account/email: a link goes to the new address. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: async (input: ChangeEmailInput) =>
      messageOf(await apiRequest('PUT', '/api/account/email', input)),
  });
}

/** GET /api/account/sessions. */
export function useSessions() {
  return useQuery({
    queryKey: accountKeys.sessions,
    queryFn: async () => (await apiGet<AccountSession[]>('/api/account/sessions')) ?? [],
  });
}

/** DELETE /api/account/sessions/:id. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/account/sessions/${encodeURIComponent(id)}`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/** POST /api/account/sign-out-everywhere, then to the start page signed out. */
export function useSignOutEverywhere() {
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/account/sign-out-everywhere');
    },
    onSuccess: () => window.location.assign('/'),
  });
}

/** GET /api/account/export, saved by the browser as the server names it. */
export function useDownloadData() {
  return useMutation({
    mutationFn: async () => {
      const response = await apiRequest('GET', '/api/account/export');
      const name =
        /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
        'barterhood-data.json';
      const url = URL.createObjectURL(await response.blob());
      const link = Object.assign(document.createElement('a'), { href: url, download: name });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}

/** DELETE /api/account, then the start page, signed out. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (input: DeleteAccountInput) => {
      await apiRequest('DELETE', '/api/account', input);
    },
    onSuccess: () => window.location.assign('/'),
  });
}

/** POST /api/mail/unsubscribe with the link's own query. */
export function useUnsubscribe() {
  return useMutation({
    mutationFn: async (query: string) => {
      return messageOf(await apiRequest('POST', `/api/mail/unsubscribe?${query}`));
    },
  });
}
