import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DemoLoginInput, LoginInput, RegisterInput } from '#common/schemas/auth.ts';
import { apiRequest } from './api-client';
import { OfflineError } from './offline';
import { authKeys } from './query-keys';
import { safeReturnPath } from './return-path';

/**
 * After sign-in: refresh the current user, then a full navigation to / (spec section 4), or to the
 * member-only page a signed-out visitor was sent to sign in from (`/login?next=`, issue 17).
 */
async function refreshAndGoHome(queryClient: ReturnType<typeof useQueryClient>) {
  await queryClient.invalidateQueries({ queryKey: authKeys.user });
  window.location.assign(safeReturnPath(new URLSearchParams(window.location.search).get('next')));
}

/** POST /api/auth/login; the response is not read. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      await apiRequest('POST', '/api/auth/login', input);
    },
    onSuccess: () => refreshAndGoHome(queryClient),
  });
}

/** POST /api/auth/register with the confirmation left out; the response is not read. */
export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RegisterInput) => {
      await apiRequest('POST', '/api/auth/register', input);
    },
    onSuccess: () => refreshAndGoHome(queryClient),
  });
}

/** POST /api/demo-login; the response is not read. */
export function useDemoLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: DemoLoginInput) => {
      await apiRequest('POST', '/api/demo-login', input);
    },
    onSuccess: () => refreshAndGoHome(queryClient),
  });
}

/**
 * POST /api/auth/logout, then the browser goes to / even when the call fails (spec section 4), except
 * when it was refused offline before being sent (the member is still signed in).
 */
export function useLogout() {
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/auth/logout');
    },
    onError: (error) => console.warn('Logout failed', error),
    // Refused offline (nothing was sent, the toast says so): still signed in, so stay on the page.
    onSettled: (_data, error) => {
      if (!(error instanceof OfflineError)) window.location.assign('/');
    },
  });
}
