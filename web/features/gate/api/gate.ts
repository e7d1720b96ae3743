import { queryOptions, useMutation } from '@tanstack/react-query';
import type { GateStatus, VerifyPasswordInput } from '#common/schemas/gate.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { gateKeys } from '#web/lib/query-keys.ts';

/** GET /api/gate: is the gate on, and has this browser passed it? */
export const gateStatusQuery = () =>
  queryOptions({
    queryKey: gateKeys.status,
    queryFn: () => apiGet<GateStatus>('/api/gate') as Promise<GateStatus>,
  });

/** POST /api/verify-password: only ok or not ok is read (spec section 7). */
export function useVerifyPassword() {
  return useMutation({
    mutationFn: async (input: VerifyPasswordInput) => {
      await apiRequest('POST', '/api/verify-password', input);
    },
  });
}
