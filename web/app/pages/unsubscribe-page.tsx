import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useSearch } from 'wouter';
import { Button } from '../../components/ui/button';
import { useUnsubscribe } from '../../features/account/api/account-api';
import { AuthLayout } from '../../features/auth/components/auth-layout';
import { serverMessageOf } from '../../lib/api-client';
import { paths } from '../../lib/paths';

/** /unsubscribe?u=&k=&t= from a digest e-mail: one button, so link scanners change nothing (ADR 026). */
export default function UnsubscribePage() {
  const { t } = useLingui();
  const query = useSearch();
  const kind = new URLSearchParams(query).get('k') === 'proposals' ? 'proposals' : 'messages';
  const unsubscribe = useUnsubscribe();
  return (
    <AuthLayout
      title={t`Email notifications`}
      subtitle={
        kind === 'proposals'
          ? t`Stop emails about new proposals, hand-over reminders and no-show reports?`
          : t`Stop emails about new messages?`
      }
    >
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
