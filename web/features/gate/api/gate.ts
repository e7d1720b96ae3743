import { queryOptions, useMutation } from '@tanstack/react-query';
import type { GateStatus, VerifyPasswordInput } from '../../../../common/schemas/gate';
import { apiGet, apiRequest } from '../../../lib/api-client';

export const gateKeys = { status: ['gate', 'status'] as const };

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
