import type { MessageDescriptor } from '@lingui/core';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import {
  type AuditEntry,
  MODERATOR_ACTIONS,
  type ModerationCase,
  type ModeratorAction,
  SUSPENSION_DAYS_MAX,
} from '#common/schemas/safety.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatDate } from '#web/i18n/format.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { REPORT_REASON_MESSAGES } from '#web/lib/reports.ts';
import { useAuditLog, useModerationCases, useRefusals, useResolveReport } from '../api/safety-api';
import {
  ACTION_LABELS,
  AUDIT_ACTION_WORDS,
  AUDIT_TARGET_WORDS,
  codeWords,
  KIND_LABELS,
  REFUSAL_KIND_WORDS,
  REFUSAL_REASON_WORDS,
} from '../safety-labels';

/** A moment as the moderators' screen shows it ("Mar 5, 2025, 3:05 PM"), in the active language. */
const when = (value: string) => formatDate(value, { dateStyle: 'medium', timeStyle: 'short' });

/** One reported thing: it in context, its reports, and the action form (a reason is required). */
function CaseCard({ item }: { item: ModerationCase }) {
  const { t } = useLingui();
  const resolve = useResolveReport();
  const [action, setAction] = useState<ModeratorAction>('dismiss');
  const [days, setDays] = useState('7');
  const [reason, setReason] = useState('');
  const ids = { action: useId(), days: useId(), reason: useId() };
  const removable =
    item.targetKind === 'item' || item.targetKind === 'message' || item.targetKind === 'rating';
  const actions = MODERATOR_ACTIONS.filter((value) => value !== 'remove' || removable);
  const apply = () => {
    if (!reason.trim()) {
      toast({
        title: t`Say why`,
        description: t`The reason goes in the audit log.`,
        variant: 'destructive',
      });
      return;
    }
    // mutateAsync: the card leaves the list when the queue is read again, and the toast must still show.
    resolve
      .mutateAsync({
        reportId: item.reportId,
        action,
        reason: reason.trim(),
        ...(action === 'suspend' ? { days: Number(days) } : {}),
      })
      .then(
        () => {
          const actionLabel = t(ACTION_LABELS[action]);
          toast({ title: t`Done`, description: t`${actionLabel}: recorded in the audit log.` });
        },
        (error: unknown) =>
          toast({
            title: t`Could not apply`,
            description: serverMessageOf(error, t`Please try again.`),
            variant: 'destructive',
          }),
      );
  };
  const owner = item.owner.name;
  const suspendedUntil = item.owner.suspendedUntil ? when(item.owner.suspendedUntil) : null;
  const title = item.title;
  return (
    <Card className="grid gap-3 p-5">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="accent">{t(KIND_LABELS[item.targetKind])}</Badge>
        <span className="font-semibold text-slate-900">{item.title ?? t(KIND_LABELS[item.targetKind])}</span>
        {item.removed && (
          <Badge>
            <Trans>Removed</Trans>
          </Badge>
        )}
      </div>
      <p className="text-sm text-slate-700">
        {item.owner.banned ? (
          <Trans>
            By <strong>{owner}</strong> (banned)
          </Trans>
        ) : suspendedUntil ? (
          <Trans>
            By <strong>{owner}</strong> (suspended until {suspendedUntil})
          </Trans>
        ) : (
          <Trans>
            By <strong>{owner}</strong>
          </Trans>
        )}
      </p>
      {item.imageUrl && (
        <img
          src={item.imageUrl}
          alt={title ? t`Reported: ${title}` : t`Reported listing`}
          className="max-h-48 w-auto rounded-lg object-contain"
        />
      )}
      {item.text && (
        <blockquote className="border-l-4 border-slate-200 pl-3 text-slate-800">{item.text}</blockquote>
      )}
      <ul className="grid gap-1 text-sm text-slate-700" aria-label={t`Reports`}>
        {item.reports.map((report) => {
          const reason = t(REPORT_REASON_MESSAGES[report.reason]);
          const reporter = report.reporterName;
          const date = when(report.createdAt);
          const note = report.note;
          return (
            <li key={report.id}>
              {note ? (
                <Trans>
                  <strong>{reason}</strong> from {reporter}, {date}: "{note}"
                </Trans>
              ) : (
                <Trans>
                  <strong>{reason}</strong> from {reporter}, {date}
                </Trans>
              )}
            </li>
          );
        })}
      </ul>
      <form
        className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,6rem)_1fr_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor={ids.action}>
            <Trans>Action</Trans>
          </Label>
          <select
            id={ids.action}
            value={action}
            onChange={(event) => setAction(event.target.value as ModeratorAction)}
            className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm"
          >
            {actions.map((value) => (
              <option key={value} value={value}>
                {t(ACTION_LABELS[value])}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.days}>
            <Trans>Days</Trans>
          </Label>
          <Input
            id={ids.days}
            type="number"
            min={1}
            max={SUSPENSION_DAYS_MAX}
            value={days}
            disabled={action !== 'suspend'}
            onChange={(event) => setDays(event.target.value)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.reason}>
            <Trans>Why (for the audit log)</Trans>
          </Label>
          <Textarea
            id={ids.reason}
            rows={1}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={resolve.isPending}>
          <Trans>Apply</Trans>
        </Button>
      </form>
    </Card>
  );
}

/** An audit entry's "what": "suspend 7 days (member)", its codes in words. */
function auditWhat(entry: AuditEntry, t: (descriptor: MessageDescriptor) => string): string {
  let text = codeWords(AUDIT_ACTION_WORDS, entry.action, t);
  const days = entry.days;
  if (days) text += ` ${plural(days, { one: '# day', other: '# days' })}`;
  if (entry.targetKind) text += ` (${codeWords(AUDIT_TARGET_WORDS, entry.targetKind, t)})`;
  return text;
}

/** The moderators' screen (ADR 025): open reports in context, then the audit log. */
export function ModerationQueue() {
  const cases = useModerationCases();
  const audit = useAuditLog();
  const refusals = useRefusals();
  const { t } = useLingui();
  const openCount = cases.data?.length;
  return (
    <div className="grid gap-8">
      <section aria-labelledby="reports-heading" className="grid gap-4">
        <h2 id="reports-heading" className="text-xl font-semibold text-slate-900">
          {openCount === undefined ? t`Open reports` : t`Open reports (${openCount})`}
        </h2>
        {cases.isError && (
          <p className="text-red-700">
            <Trans>The reports could not be loaded.</Trans>
          </p>
        )}
        {cases.data?.length === 0 && (
          <p className="text-slate-600">
            <Trans>Nothing to review. Thank you!</Trans>
          </p>
        )}
        {(cases.data ?? []).map((item) => (
          <CaseCard key={`${item.targetKind}:${item.targetId}`} item={item} />
        ))}
      </section>
      <section aria-labelledby="refusals-heading" className="grid gap-3">
        <h2 id="refusals-heading" className="text-xl font-semibold text-slate-900">
          <Trans>Automatic refusals (last 7 days)</Trans>
        </h2>
        {refusals.data?.length === 0 && (
          <p className="text-slate-600">
            <Trans>None.</Trans>
          </p>
        )}
        <ul className="grid gap-2" aria-label={t`Automatic refusals`}>
          {(refusals.data ?? []).map((refusal) => (
            <li key={refusal.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="text-slate-600">
                <strong className="text-slate-900">{refusal.memberName}</strong>,{' '}
                {codeWords(REFUSAL_KIND_WORDS, refusal.kind, t)},{' '}
                {codeWords(REFUSAL_REASON_WORDS, refusal.reason, t)}, {when(refusal.createdAt)}
              </p>
              <p className="mt-1 break-words text-slate-800">{refusal.excerpt}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="audit-heading" className="grid gap-3">
        <h2 id="audit-heading" className="text-xl font-semibold text-slate-900">
          <Trans>Audit log</Trans>
        </h2>
        {/* Scrolls sideways on a phone: focusable, so the keyboard can scroll it too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1). */}
        <section className="overflow-x-auto" tabIndex={0} aria-label={t`Audit log entries`}>
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  <Trans>When</Trans>
                </th>
                <th scope="col" className="py-2 pr-3">
                  <Trans>Who</Trans>
                </th>
                <th scope="col" className="py-2 pr-3">
                  <Trans>What</Trans>
                </th>
                <th scope="col" className="py-2 pr-3">
                  <Trans>Member</Trans>
                </th>
                <th scope="col" className="py-2">
                  <Trans>Why</Trans>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {(audit.data ?? []).map((entry) => (
                <tr key={entry.id}>
                  <td className="py-2 pr-3 whitespace-nowrap">{when(entry.createdAt)}</td>
                  <td className="py-2 pr-3">{entry.moderatorName}</td>
                  <td className="py-2 pr-3">{auditWhat(entry, t)}</td>
                  <td className="py-2 pr-3">{entry.targetName ?? '-'}</td>
                  <td className="py-2">{entry.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </section>
    </div>
  );
}
