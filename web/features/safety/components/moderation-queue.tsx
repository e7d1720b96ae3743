import { useId, useState } from 'react';
import {
  MODERATOR_ACTIONS,
  type ModerationCase,
  type ModeratorAction,
  REPORT_REASON_LABELS,
  SUSPENSION_DAYS_MAX,
} from '../../../../common/schemas/safety';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuditLog, useModerationCases, useRefusals, useResolveReport } from '../api/safety-api';

const ACTION_LABELS: Record<ModeratorAction, string> = {
  dismiss: 'Dismiss',
  remove: 'Remove the content',
  warn: 'Warn the member',
  suspend: 'Suspend the member',
  ban: 'Ban the member',
  lift: 'Lift their suspension or ban',
};
const KIND_LABELS: Record<ModerationCase['targetKind'], string> = {
  item: 'Listing',
  member: 'Member',
  message: 'Message',
  rating: 'Rating',
  appeal: 'Appeal',
};
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** One reported thing: it in context, its reports, and the action form (a reason is required). */
function CaseCard({ item }: { item: ModerationCase }) {
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
      toast({ title: 'Say why', description: 'The reason goes in the audit log.', variant: 'destructive' });
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
        () => toast({ title: 'Done', description: `${ACTION_LABELS[action]}: recorded in the audit log.` }),
        (error: unknown) =>
          toast({
            title: 'Could not apply',
            description: serverMessageOf(error, 'Please try again.'),
            variant: 'destructive',
          }),
      );
  };
  return (
    <Card className="grid gap-3 p-5">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="accent">{KIND_LABELS[item.targetKind]}</Badge>
        <span className="font-semibold text-slate-900">{item.title ?? KIND_LABELS[item.targetKind]}</span>
        {item.removed && <Badge>Removed</Badge>}
      </div>
      <p className="text-sm text-slate-700">
        By <strong>{item.owner.name}</strong>
        {item.owner.banned
          ? ' (banned)'
          : item.owner.suspendedUntil
            ? ` (suspended until ${when.format(new Date(item.owner.suspendedUntil))})`
            : ''}
      </p>
      {item.imageUrl && (
        <img
          src={item.imageUrl}
          alt={item.title ? `Reported: ${item.title}` : 'Reported listing'}
          className="max-h-48 w-auto rounded-lg object-contain"
        />
      )}
      {item.text && (
        <blockquote className="border-l-4 border-slate-200 pl-3 text-slate-800">{item.text}</blockquote>
      )}
      <ul className="grid gap-1 text-sm text-slate-700" aria-label="Reports">
        {item.reports.map((report) => (
          <li key={report.id}>
            <strong>{REPORT_REASON_LABELS[report.reason]}</strong> from {report.reporterName},{' '}
            {when.format(new Date(report.createdAt))}
            {report.note ? `: "${report.note}"` : ''}
          </li>
        ))}
      </ul>
      <form
        className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_minmax(0,6rem)_1fr_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <div className="grid gap-1">
          <Label htmlFor={ids.action}>Action</Label>
          <select
            id={ids.action}
            value={action}
            onChange={(event) => setAction(event.target.value as ModeratorAction)}
            className="h-10 rounded-lg border border-slate-300 bg-white px-2 text-sm"
          >
            {actions.map((value) => (
              <option key={value} value={value}>
                {ACTION_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1">
          <Label htmlFor={ids.days}>Days</Label>
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
          <Label htmlFor={ids.reason}>Why (for the audit log)</Label>
          <Textarea
            id={ids.reason}
            rows={1}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={resolve.isPending}>
          Apply
        </Button>
      </form>
    </Card>
  );
}

/** The moderators' screen (ADR 025): open reports in context, then the audit log. */
export function ModerationQueue() {
  const cases = useModerationCases();
  const audit = useAuditLog();
  const refusals = useRefusals();
  return (
    <div className="grid gap-8">
      <section aria-labelledby="reports-heading" className="grid gap-4">
        <h2 id="reports-heading" className="text-xl font-semibold text-slate-900">
          Open reports {cases.data ? `(${cases.data.length})` : ''}
        </h2>
        {cases.isError && <p className="text-red-700">The reports could not be loaded.</p>}
        {cases.data?.length === 0 && <p className="text-slate-600">Nothing to review. Thank you!</p>}
        {(cases.data ?? []).map((item) => (
          <CaseCard key={`${item.targetKind}:${item.targetId}`} item={item} />
        ))}
      </section>
      <section aria-labelledby="refusals-heading" className="grid gap-3">
        <h2 id="refusals-heading" className="text-xl font-semibold text-slate-900">
          Automatic refusals (last 7 days)
        </h2>
        {refusals.data?.length === 0 && <p className="text-slate-600">None.</p>}
        <ul className="grid gap-2" aria-label="Automatic refusals">
          {(refusals.data ?? []).map((refusal) => (
            <li key={refusal.id} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="text-slate-600">
                <strong className="text-slate-900">{refusal.memberName}</strong>, {refusal.kind},{' '}
                {refusal.reason}, {when.format(new Date(refusal.createdAt))}
              </p>
              <p className="mt-1 break-words text-slate-800">{refusal.excerpt}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="audit-heading" className="grid gap-3">
        <h2 id="audit-heading" className="text-xl font-semibold text-slate-900">
          Audit log
        </h2>
        {/* Scrolls sideways on a phone: focusable, so the keyboard can scroll it too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1). */}
        <section className="overflow-x-auto" tabIndex={0} aria-label="Audit log entries">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  When
                </th>
                <th scope="col" className="py-2 pr-3">
                  Who
                </th>
                <th scope="col" className="py-2 pr-3">
                  What
                </th>
                <th scope="col" className="py-2 pr-3">
                  Member
                </th>
                <th scope="col" className="py-2">
                  Why
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {(audit.data ?? []).map((entry) => (
                <tr key={entry.id}>
                  <td className="py-2 pr-3 whitespace-nowrap">{when.format(new Date(entry.createdAt))}</td>
                  <td className="py-2 pr-3">{entry.moderatorName}</td>
                  <td className="py-2 pr-3">
                    {entry.action}
                    {entry.days ? ` ${entry.days} days` : ''}
                    {entry.targetKind ? ` (${entry.targetKind})` : ''}
                  </td>
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
