import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useState } from 'react';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_GROUPS,
  type NotificationChannel,
  type NotificationGroup,
} from '#common/notification-channels.ts';
import type { NotificationChannels } from '#common/schemas/notification-channels.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useNotificationChannels, useSetNotificationChannels } from '../api/notification-channels-api';
import { usePushDevices, usePushSupported } from '../api/push-api';
import { useTurnOnPushHere } from './use-turn-on-push-here';

/** Each group as the member reads it; the kinds in each are common/notification-channels.ts's. */
const GROUP_LABELS: Record<NotificationGroup, MessageDescriptor> = {
  proposals: msg`New proposals, counter-offers, hand-over reminders and no-show reports`,
  messages: msg`New messages`,
  barters: msg`Your barters: answers, hand-over plans, completions and ratings`,
  circles: msg`Trade circles and swap days`,
  listing_alerts: msg`New listings matching your saved searches and wants`,
  listings: msg`Whether your listings are still available`,
  moderation: msg`Warnings from moderators`,
};

const CHANNEL_LABELS: Record<NotificationChannel, MessageDescriptor> = {
  push: msg`Push`,
  digest: msg`Email digest`,
  none: msg`None`,
};

/**
 * One choice per group of notifications (issue 31, ADR 090): a push to the member's devices, the
 * email digest of what they missed, or nothing outside the app. The bell has every entry either
 * way. Radio buttons in a fieldset per group: the arrow keys move the choice, which is saved at once.
 */
export function NotificationChannelsSection() {
  const { t } = useLingui();
  const id = useId();
  const channels = useNotificationChannels();
  const save = useSetNotificationChannels();
  const devices = usePushDevices();
  const turnOn = useTurnOnPushHere();
  const supported = usePushSupported();
  // The choice shows in the same render as the click or arrow key: a radio whose state came only from
  // the cached choices would flick back until the mutation's optimistic update lands a task later.
  // Whatever the cache holds next (that update, the saved answer, or a refusal's fresh read) wins.
  const [picked, setPicked] = useState<Partial<NotificationChannels>>({});
  const saved = channels.data;
  const current = saved ? { ...saved, ...picked } : undefined;
  useEffect(() => {
    if (channels.dataUpdatedAt) setPicked({});
  }, [channels.dataUpdatedAt]);
  const choose = (group: NotificationGroup, channel: NotificationChannel) => {
    setPicked((others) => ({ ...others, [group]: channel }));
    save.mutate(
      { [group]: channel },
      {
        onError: (error) =>
          toast({
            title: t`Not saved`,
            description: serverMessageOf(error, t`Please try again.`),
            variant: 'destructive',
          }),
      },
    );
  };
  const pushChosen = current ? NOTIFICATION_GROUPS.some((group) => current[group] === 'push') : false;
  const noDevice = devices.isSuccess && devices.data.length === 0;
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>How notifications reach you</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          Everything is on your bell in Barterhood. Choose what also reaches you when Barterhood is closed: a
          push notification on your devices, an email of what you missed (when you haven't had Barterhood open
          for 10 minutes, at most once an hour), or nothing.
        </Trans>
      </p>
      {channels.isError && (
        <p className="mt-2 text-sm text-red-700">
          <Trans>Could not load your choices.</Trans>
        </p>
      )}
      {pushChosen && noDevice && (
        <div className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-950">
          <p>
            <Trans>
              No device gets push notifications from you yet, so what you chose to get by push reaches you
              only on your bell.
            </Trans>
          </p>
          {supported && (
            <Button
              variant="secondary"
              size="sm"
              className="mt-2"
              disabled={turnOn.pending}
              onClick={turnOn.turnOn}
            >
              <Trans>Turn on push for this browser</Trans>
            </Button>
          )}
        </div>
      )}
      {current && (
        <div className="mt-4 grid gap-4">
          {NOTIFICATION_GROUPS.map((group) => (
            <fieldset key={group} className="grid gap-2">
              <legend className="text-sm font-medium text-slate-900">{t(GROUP_LABELS[group])}</legend>
              <div className="flex flex-wrap gap-x-5 gap-y-2">
                {NOTIFICATION_CHANNELS.map((channel) => (
                  <label key={channel} className="flex min-h-6 items-center gap-2 text-sm text-slate-800">
                    <input
                      type="radio"
                      className="size-4 accent-brand-600"
                      name={`${id}-${group}`}
                      value={channel}
                      checked={current[group] === channel}
                      onChange={() => choose(group, channel)}
                    />
                    {t(CHANNEL_LABELS[channel])}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </div>
      )}
    </Card>
  );
}
