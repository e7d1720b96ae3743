import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AuditEntry,
  BlockedMember,
  ModerationCase,
  Refusal,
  ResolveReportInput,
} from '#common/schemas/safety.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { authKeys, safetyKeys } from '#web/lib/query-keys.ts';

/** POST /api/members/:id/block: every feed and page is read again without them. */
export function useBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (memberId: string) => {
      await apiRequest('POST', `/api/members/${encodeURIComponent(memberId)}/block`);
    },
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.user[0] }),
  });
}

/** DELETE /api/members/:id/block. */
export function useUnblock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (memberId: string) => {
      await apiRequest('DELETE', `/api/members/${encodeURIComponent(memberId)}/block`);
    },
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== authKeys.user[0] }),
  });
}

/** GET /api/account/blocks. */
export function useBlocked() {
  return useQuery({
    queryKey: safetyKeys.blocks,
    queryFn: async () => (await apiGet<BlockedMember[]>('/api/account/blocks')) ?? [],
  });
}

/** POST /api/account/appeal. */
export function useAppeal() {
  return useMutation({
    mutationFn: async (text: string) => {
      await apiRequest('POST', '/api/account/appeal', { text });
    },
  });
}

/** GET /api/moderation/reports. */
export function useModerationCases() {
  return useQuery({
    queryKey: safetyKeys.cases,
    queryFn: async () => (await apiGet<ModerationCase[]>('/api/moderation/reports')) ?? [],
  });
}

/** GET /api/moderation/audit. */
export function useAuditLog() {
  return useQuery({
    queryKey: safetyKeys.audit,
    queryFn: async () => (await apiGet<AuditEntry[]>('/api/moderation/audit')) ?? [],
  });
}

/** POST /api/moderation/reports/:id/resolve; the queue and the log are read again. */
export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ reportId, ...input }: ResolveReportInput & { reportId: number }) => {
      await apiRequest('POST', `/api/moderation/reports/${reportId}/resolve`, input);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: safetyKeys.cases });
      await queryClient.invalidateQueries({ queryKey: safetyKeys.audit });
    },
  });
}

/** GET /api/moderation/refusals. */
export function useRefusals() {
  return useQuery({
    queryKey: safetyKeys.refusals,
    queryFn: async () => (await apiGet<Refusal[]>('/api/moderation/refusals')) ?? [],
  });
}
