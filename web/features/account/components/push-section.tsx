import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { usePushDevices, usePushSupported, useRemovePushDevice } from '../api/push-api';
import { day, deviceName } from '../device-name';
import { useTurnOnPushHere } from './use-turn-on-push-here';

/**
 * Web Push (ADR 087): turn notifications on for this browser or the installed app, and the list of
 * the member's devices that get them ("This device", browser and system, when added), each removable.
 */
export function PushSection() {
  const { t } = useLingui();
  const devices = usePushDevices();
  const turnOn = useTurnOnPushHere();
  const remove = useRemovePushDevice();
  // Known only in the browser: the page the server draws (ADR 037) leaves the choice out, and the
  // browser's first render matches it before saying whether push can work here.
  const supported = usePushSupported();
  const list = devices.data ?? [];
  const thisDeviceOn = list.some((device) => device.current);
  const failed = (title: string, error: unknown) =>
    toast({ title, description: serverMessageOf(error, t`Please try again.`), variant: 'destructive' });
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Phone and browser notifications</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>Get your notifications on this device even when Barterhood is closed.</Trans>
      </p>
      {supported === null ? null : !supported ? (
        <p className="mt-3 text-sm text-slate-700">
          <Trans>This browser cannot show notifications from websites.</Trans>
        </p>
      ) : (
        !thisDeviceOn && (
          <Button className="mt-4" disabled={turnOn.pending} onClick={turnOn.turnOn}>
            <Trans>Turn on notifications on this device</Trans>
          </Button>
        )
      )}
      {devices.isError && (
        <p className="mt-2 text-sm text-red-700">
          <Trans>Could not load your devices.</Trans>
        </p>
      )}
      {list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-200" aria-label={t`Devices that get notifications`}>
          {list.map((device) => {
            const name = deviceName(device.device);
            const added = day(device.createdAt);
            return (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-medium text-slate-900">
                    {name}
                    {device.current && (
                      <Badge tone="brand" className="ml-2">
                        <Trans>This device</Trans>
                      </Badge>
                    )}
                  </p>
                  <p className="text-sm text-slate-600">
                    <Trans>Added {added}</Trans>
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={remove.isPending}
                  aria-label={t`Stop notifications on ${name}, added ${added}`}
                  onClick={() =>
                    remove.mutate(device, {
                      onSuccess: () =>
                        toast({
                          title: t`Notifications stopped`,
                          description: t`${name} gets no more notifications.`,
                        }),
                      onError: (error) => failed(t`Could not stop notifications on that device`, error),
                    })
                  }
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
