import { Trans, useLingui } from '@lingui/react/macro';
import type { DisputedNoShow, NoShowDecision } from '#common/schemas/no-shows.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatDateTime } from '#web/i18n/format.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useDecideNoShow, useDisputedNoShows } from '../api/no-shows-api';

/**
 * Disputed no-show reports (issue 30, ADR 079) on the moderators' screen: who reported whom (shown
 * to moderators only), the barter, the agreed window's end, the answer and its note, and the
 * decision: kept (counts for the reported member), missed (against them) or dismissed (counts
 * nothing). A decided case leaves the list; the decision goes in the audit log.
 */
export function DisputedNoShowsPanel() {
  const { t } = useLingui();
  const cases = useDisputedNoShows();
  return (
    <section aria-labelledby="disputed-no-shows-heading" className="grid gap-4">
      <h2 id="disputed-no-shows-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Disputed no-show reports</Trans>
      </h2>
      <p className="text-sm text-slate-700">
        <Trans>
          A member reported that the other did not come to an agreed hand-over, and the other answered. Kept
          counts the hand-over for the reported member, missed counts it against them, dismissed counts
          nothing.
        </Trans>
      </p>
      {cases.isPending ? (
        <p className="text-sm text-slate-600">
          <Trans>Loading the reports...</Trans>
        </p>
      ) : cases.isError ? (
        <p role="alert" className="text-sm text-red-700">
          <Trans>The reports could not be loaded. Please reload the page.</Trans>
        </p>
      ) : cases.data.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>No disputed no-show reports.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Disputed no-show reports`} className="grid gap-2">
          {cases.data.map((item) => (
            <NoShowCase key={item.id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function NoShowCase({ item }: { item: DisputedNoShow }) {
  const { t } = useLingui();
  const decide = useDecideNoShow();
  const reporter = item.reporter?.name ?? t`A former member`;
  const reported = item.reported?.name ?? t`a former member`;
  const barterId = item.barterRequestId;
  const windowEnd = formatDateTime(item.windowEndsAt);
  const reportedAt = formatDateTime(item.createdAt);
  const answeredAt = formatDateTime(item.answeredAt);
  const choose = (decision: NoShowDecision, done: string) => {
    // mutateAsync: the case leaves the list when the queue is read again, and the toast must still show.
    decide.mutateAsync({ id: item.id, decision }).then(
      () => toast({ title: done }),
      (failure: unknown) =>
        toast({
          title: t`Could not apply`,
          description: serverMessageOf(failure, t`Please try again.`),
          variant: 'destructive',
        }),
    );
  };
  return (
    <li className="grid min-w-0 gap-2 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <p className="min-w-0 break-words">
        <Trans>
          <span className="font-medium">{reporter}</span> reported that{' '}
          <span className="font-medium">{reported}</span> did not come (barter #{barterId}).
        </Trans>
      </p>
      <p className="min-w-0 break-words text-slate-700">
        <Trans>
          The agreed window ended {windowEnd}; reported {reportedAt}.
        </Trans>
      </p>
      <p className="min-w-0 break-words">
        {item.answer === 'was_there' ? (
          <Trans>
            {reported} answered on {answeredAt}: I was there.
          </Trans>
        ) : (
          <Trans>
            {reported} answered on {answeredAt}: we rescheduled.
          </Trans>
        )}
      </p>
      {item.note ? (
        <blockquote className="min-w-0 break-words border-l-2 border-slate-300 pl-2 text-slate-700">
          {item.note}
        </blockquote>
      ) : null}
      <fieldset className="flex min-w-0 flex-wrap gap-2">
        <legend className="sr-only">{t`Decide the report about ${reported}`}</legend>
        <Button
          size="sm"
          disabled={decide.isPending}
          onClick={() => choose('kept', t`Decided: kept. Recorded in the audit log.`)}
        >
          <Trans>Kept</Trans>
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={decide.isPending}
          onClick={() => choose('missed', t`Decided: missed. Recorded in the audit log.`)}
        >
          <Trans>Missed</Trans>
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={decide.isPending}
          onClick={() => choose('dismissed', t`Report dismissed. Recorded in the audit log.`)}
        >
          <Trans>Dismiss</Trans>
        </Button>
      </fieldset>
    </li>
  );
}
