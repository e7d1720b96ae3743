import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  NotificationChannels,
  NotificationChannelsUpdate,
} from '#common/schemas/notification-channels.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { storeAnswer } from '#web/lib/query-client.ts';
import { accountKeys } from '#web/lib/query-keys.ts';

const URL = '/api/account/notification-channels';

/** GET /api/account/notification-channels: push, e-mail digest or none per group (ADR 090). */
export function useNotificationChannels() {
  return useQuery({
    queryKey: accountKeys.notificationChannels,
    queryFn: async () => apiGet<NotificationChannels>(URL),
  });
}

/** PUT /api/account/notification-channels with the groups changed; the answer is every group's. */
export function useSetNotificationChannels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NotificationChannelsUpdate) =>
      (await (await apiRequest('PUT', URL, input)).json()) as NotificationChannels,
    // The choice shows at once (a radio follows the arrow keys); a refusal reads the choices again.
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: accountKeys.notificationChannels, exact: true });
      queryClient.setQueryData<NotificationChannels>(accountKeys.notificationChannels, (current) =>
        current ? { ...current, ...input } : current,
      );
    },
    onSuccess: (saved) => storeAnswer(queryClient, accountKeys.notificationChannels, saved),
    onError: () => queryClient.invalidateQueries({ queryKey: accountKeys.notificationChannels }),
  });
}
