import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { PushDevice } from '#common/schemas/push.ts';
import { withMessages } from '#web/i18n/i18n.ts';
import { apiGet, apiRequest } from '#web/lib/api-client.ts';
import { accountKeys } from '#web/lib/query-keys.ts';

/** Whether this browser can get pushes at all (a service worker, PushManager and notifications). */
export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

const noChanges = () => () => {};

/**
 * pushSupported for a component: null until the page is hydrated (the page the server draws, ADR
 * 037, cannot know), so the browser's first render matches the server's.
 */
export function usePushSupported(): boolean | null {
  return useSyncExternalStore(noChanges, pushSupported, () => null);
}

/** This browser's own push subscription, if it has one (null when none or unsupported). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** GET /api/push/subscriptions, with which entry is this browser. */
export function usePushDevices() {
  return useQuery({
    queryKey: accountKeys.pushDevices,
    queryFn: async () => {
      const [devices, own] = await Promise.all([
        apiGet<PushDevice[]>('/api/push/subscriptions'),
        currentSubscription().catch(() => null),
      ]);
      return (devices ?? []).map((device) => ({ ...device, current: device.endpoint === own?.endpoint }));
    },
  });
}

/** The base64url VAPID key as the bytes PushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Turn push on for this browser: ask for the permission, subscribe with the site's key through the
 * service worker, and give the subscription to the server. Answers 'denied' when the member (or the
 * browser) said no.
 */
export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<'on' | 'denied'> => {
      if ((await Notification.requestPermission()) !== 'granted') return 'denied';
      const key = await apiGet<{ publicKey: string }>('/api/push/key');
      if (!key) throw new Error('no key');
      // The worker registers once the page has settled (ADR 109): turned on before that, it registers now.
      if (import.meta.env.PROD && !(await navigator.serviceWorker.getRegistration())) {
        const { registerServiceWorker } = await withMessages(
          () => import('#web/lib/register-service-worker.ts'),
          { background: true },
        );
        registerServiceWorker();
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(key.publicKey),
      });
      await apiRequest('POST', '/api/push/subscriptions', subscription.toJSON());
      return 'on';
    },
    // The channels' defaults follow whether the member has a device (ADR 090).
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.pushDevices }),
        queryClient.invalidateQueries({ queryKey: accountKeys.notificationChannels }),
      ]),
  });
}

/** DELETE /api/push/subscriptions/:id; this browser's own subscription is ended too. */
export function useRemovePushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (device: PushDevice & { current: boolean }) => {
      await apiRequest('DELETE', `/api/push/subscriptions/${device.id}`);
      if (device.current) await (await currentSubscription().catch(() => null))?.unsubscribe();
    },
    // The channels' defaults follow whether the member has a device (ADR 090).
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.pushDevices }),
        queryClient.invalidateQueries({ queryKey: accountKeys.notificationChannels }),
      ]),
  });
}
