import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useSearch } from 'wouter';
import { NOTIFICATION_GROUPS, type NotificationGroup } from '#common/notification-channels.ts';
import { Button } from '../../components/ui/button';
import { useUnsubscribe } from '../../features/account/api/account-api';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { serverMessageOf } from '../../lib/api-client';
import { paths } from '../../lib/paths';

/** What each group's link stops, as the digest's own stop line says it (ADR 090). */
const QUESTIONS: Record<NotificationGroup, MessageDescriptor> = {
  proposals: msg`Stop emails about new proposals, hand-over reminders and no-show reports?`,
  messages: msg`Stop emails about new messages?`,
  barters: msg`Stop emails about your barters, hand-over plans and ratings?`,
  circles: msg`Stop emails about trade circles and swap days?`,
  listing_alerts: msg`Stop emails about new listings matching your saved searches and wants?`,
  listings: msg`Stop emails asking whether your listings are still available?`,
  moderation: msg`Stop emails about moderators' warnings?`,
};

function groupOf(value: string | null): NotificationGroup {
  return NOTIFICATION_GROUPS.find((group) => group === value) ?? 'messages';
}

/**
 * /unsubscribe?u=&k=&t= from a digest e-mail: one button, so link scanners change nothing (ADR 026);
 * `k` is the group of notifications to stop (ADR 090).
 */
export default function UnsubscribePage() {
  const { t } = useLingui();
  const query = useSearch();
  const kind = groupOf(new URLSearchParams(query).get('k'));
  const unsubscribe = useUnsubscribe();
  return (
    <AuthLayout title={t`Email notifications`} subtitle={t(QUESTIONS[kind])}>
      {unsubscribe.isSuccess ? (
        <div className="grid gap-4 text-center" role="status">
          <p className="text-slate-700">{unsubscribe.data}</p>
          <Button asChild variant="secondary">
            <Link href={paths.home}>
              <Trans>Go to Barterhood</Trans>
            </Link>
          </Button>
        </div>
      ) : (
        <div className="grid gap-4">
          {unsubscribe.isError && (
            <p role="alert" className="text-center text-red-700">
              {serverMessageOf(unsubscribe.error, t`This unsubscribe link is not valid.`)}
            </p>
          )}
          <Button size="lg" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(query)}>
            <Trans>Unsubscribe</Trans>
          </Button>
          <p className="text-center text-sm text-slate-600">
            <Trans>You can turn them back on in your Account settings.</Trans>
          </p>
        </div>
      )}
    </AuthLayout>
  );
}
