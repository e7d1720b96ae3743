import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import {
  CONFIRM_ATTENDANCE_HOURS,
  NO_SHOW_NOTE_MAX_LENGTH,
  type NoShowAnswer,
} from '#common/no-show-rules.ts';
import type { Barter } from '#common/schemas/barters.ts';
import type { Attendance } from '#common/schemas/no-shows.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatDateTime } from '#web/i18n/format.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { type AttendanceChange, useAttendance, useChangeAttendance } from '../api/attendance';
import { useHandOverPlan } from '../api/hand-over-plans';

const HOUR = 3_600_000;

/**
 * Keeping your word (issue 30, ADR 079), on an accepted barter's page once its plan is agreed and
 * its window is a day away or nearer (and on a barter cancelled or completed after a report, for its
 * answer): "Confirm you'll be there" (asked of members with a poor record; the other side sees
 * whether they did), then, after the window, "They didn't come" and the answer to a report ("I was
 * there" / "We rescheduled"). Nothing here names who reported.
 */
export function KeepingWord({ barter }: { barter: Barter }) {
  return barter.status === 'cancelled' || barter.status === 'completed' ? (
    <ClosedKeepingWord barter={barter} />
  ) : (
    <OpenKeepingWord barter={barter} />
  );
}

/**
 * A barter cancelled, or completed (by code or both confirmations), after a report (ADR 079): its
 * plan is gone from the page, but the reported member may still answer within the 48 hours and the
 * reporter still reads the answer.
 */
function ClosedKeepingWord({ barter }: { barter: Barter }) {
  const query = useAttendance(barter.id, true);
  if (!query.data) return null;
  return <KeepingWordSection barter={barter} attendance={query.data} />;
}

function OpenKeepingWord({ barter }: { barter: Barter }) {
  const plan = useHandOverPlan(barter.id).data ?? null;
  const near =
    plan !== null &&
    plan.state === 'agreed' &&
    Date.now() >= new Date(plan.startsAt).getTime() - CONFIRM_ATTENDANCE_HOURS * HOUR;
  const query = useAttendance(barter.id, near);
  if (!near || !query.data) return null;
  return <KeepingWordSection barter={barter} attendance={query.data} />;
}

function KeepingWordSection({ barter, attendance }: { barter: Barter; attendance: Attendance }) {
  const { t } = useLingui();
  const name = barter.otherMember.displayName;
  const change = useChangeAttendance(barter.id);
  const { confirm, aboutMe, myReport, canReport, planVersion } = attendance;

  const run = async (next: AttendanceChange, done: string) => {
    try {
      await change.mutateAsync(next);
      toast({ title: done });
    } catch (failure) {
      toast({
        title: t`Error`,
        description: serverMessageOf(failure, t`That did not work. Please try again.`),
        variant: 'destructive',
      });
    }
  };

  const showConfirm = confirm.askMe || confirm.otherAsked;
  if (!showConfirm && !aboutMe && !myReport && !canReport) return null;
  return (
    <section
      aria-labelledby="keeping-word-heading"
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-800"
    >
      <h2 id="keeping-word-heading" className="font-semibold">
        <Trans>Keeping your word</Trans>
      </h2>
      {confirm.askMe ? (
        confirm.myConfirmedAt ? (
          <p>
            <Trans>You confirmed you'll be there.</Trans>
          </p>
        ) : (
          <div className="grid gap-2">
            <p>
              <Trans>
                Your hand-over is within a day. Please confirm you'll be there, so {name} can count on it.
              </Trans>
            </p>
            <div>
              <Button
                disabled={change.isPending || planVersion === null}
                onClick={() =>
                  planVersion !== null &&
                  void run(
                    { kind: 'confirm', version: planVersion },
                    t`Thanks: ${name} can see you confirmed`,
                  )
                }
              >
                <Trans>Confirm you'll be there</Trans>
              </Button>
            </div>
          </div>
        )
      ) : null}
      {confirm.otherAsked ? (
        <p>
          {confirm.otherConfirmedAt ? (
            <Trans>{name} confirmed they'll be there.</Trans>
          ) : (
            <Trans>{name} has not confirmed they'll be there yet.</Trans>
          )}
        </p>
      ) : null}
      {aboutMe ? (
        <ReportAboutMe
          report={aboutMe}
          completed={barter.status === 'completed'}
          pending={change.isPending}
          onAnswer={run}
        />
      ) : null}
      {myReport ? (
        <p>
          {myReport.decision !== null ? (
            <Trans>You reported that {name} did not come. A moderator has decided the case.</Trans>
          ) : myReport.answer === 'was_there' ? (
            <Trans>
              You reported that {name} did not come. They answered that they were there: a moderator will look
              at it.
            </Trans>
          ) : myReport.answer === 'rescheduled' ? (
            <Trans>
              You reported that {name} did not come. They answered that you rescheduled: a moderator will look
              at it.
            </Trans>
          ) : (
            <Trans>
              You reported that {name} did not come. They can answer until {formatDateTime(myReport.answerBy)}
              .
            </Trans>
          )}
        </p>
      ) : null}
      {canReport && planVersion !== null ? (
        <div className="grid gap-2">
          <p>
            <Trans>
              The hand-over window has passed. If {name} did not come, you can say so: they can answer within
              48 hours.
            </Trans>
          </p>
          <div>
            <Button
              variant="secondary"
              disabled={change.isPending}
              onClick={() =>
                void run(
                  { kind: 'report', version: planVersion },
                  t`Reported: ${name} can answer within 48 hours`,
                )
              }
            >
              <Trans>They didn't come</Trans>
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function ReportAboutMe({
  report,
  completed,
  pending,
  onAnswer,
}: {
  report: NonNullable<Attendance['aboutMe']>;
  /** The barter completed after the report: a completion wins over an unanswered report (ADR 079). */
  completed: boolean;
  pending: boolean;
  onAnswer: (change: AttendanceChange, done: string) => Promise<void>;
}) {
  const { t } = useLingui();
  const [note, setNote] = useState('');
  const open = report.answer === null && Date.now() < new Date(report.answerBy).getTime();
  const until = formatDateTime(report.answerBy);
  if (report.answer !== null) {
    return (
      <p>
        {report.answer === 'was_there' ? (
          <Trans>
            Your trading partner reported that you did not come. You answered that you were there.
          </Trans>
        ) : (
          <Trans>
            Your trading partner reported that you did not come. You answered that you rescheduled.
          </Trans>
        )}
      </p>
    );
  }
  if (!open) {
    return completed ? (
      <p>
        <Trans>
          Your trading partner reported that you did not come. It was not answered within 48 hours, but the
          barter was completed, so it counts as a kept hand-over.
        </Trans>
      </p>
    ) : (
      <p>
        <Trans>
          Your trading partner reported that you did not come. It was not answered within 48 hours, so it
          counts as a missed hand-over.
        </Trans>
      </p>
    );
  }
  const answer = (value: NoShowAnswer) => (event?: FormEvent) => {
    event?.preventDefault();
    void onAnswer(
      { kind: 'answer', answer: { answer: value, ...(note.trim() ? { note: note.trim() } : {}) } },
      t`Answer sent`,
    );
  };
  return (
    <form className="grid gap-2" onSubmit={answer('was_there')} aria-labelledby="no-show-about-me">
      <p id="no-show-about-me">
        <Trans>
          Your trading partner reported that you did not come to the hand-over. You can answer until {until}.
        </Trans>
      </p>
      <label className="grid gap-1">
        <span className="font-medium">
          <Trans>Note (optional)</Trans>
        </span>
        <textarea
          value={note}
          maxLength={NO_SHOW_NOTE_MAX_LENGTH}
          onChange={(event) => setNote(event.target.value)}
          rows={2}
          className="w-full min-w-0 rounded-md border border-slate-300 p-2"
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          <Trans>I was there</Trans>
        </Button>
        <Button type="button" variant="secondary" disabled={pending} onClick={answer('rescheduled')}>
          <Trans>We rescheduled</Trans>
        </Button>
      </div>
    </form>
  );
}
