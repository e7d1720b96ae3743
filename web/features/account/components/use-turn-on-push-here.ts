import { useLingui } from '@lingui/react/macro';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useTurnOnPush } from '../api/push-api';

/**
 * Turn on push notifications for this browser or installed app (ADR 087), with what the member is
 * told: blocked by the browser, on, or could not. The one handler behind every such button.
 */
export function useTurnOnPushHere() {
  const { t } = useLingui();
  const turnOn = useTurnOnPush();
  return {
    pending: turnOn.isPending,
    turnOn: () =>
      turnOn.mutate(undefined, {
        onSuccess: (result) =>
          result === 'denied'
            ? toast({
                title: t`Notifications are blocked`,
                description: t`Allow notifications for this site in your browser's settings, then try again.`,
                variant: 'destructive',
              })
            : toast({ title: t`Notifications are on for this device` }),
        onError: (error) =>
          toast({
            title: t`Could not turn on notifications`,
            description: serverMessageOf(error, t`Please try again.`),
            variant: 'destructive',
          }),
      }),
  };
}
