import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { WantQuestion } from '#common/schemas/listings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { paths } from '#web/lib/paths.ts';
import { useAnswerWantQuestion, useWantQuestions } from '../api/wants';

/**
 * Answer "Did this fill your want?" (POST /api/wants/:id/answer): Yes says so in a toast (the want
 * moves to the fulfilled part), a refusal shows the server's reason. The barter page and the Want
 * List answer through it alike.
 */
function useWantAnswer() {
  const { t } = useLingui();
  const answer = useAnswerWantQuestion();
  const send = (question: WantQuestion, filled: boolean) => {
    const title = question.title;
    answer.mutate(
      { wantId: question.wantId, barterRequestId: question.barterRequestId, filled },
      {
        onSuccess: () => {
          if (filled) {
            toast({
              title: t`Want fulfilled`,
              description: t`"${title}" moved to the fulfilled part of your want list.`,
            });
          }
        },
        onError: (error) =>
          toast({
            title: t`Error`,
            description: serverMessageOf(error, t`Your answer could not be saved. Please try again.`),
            variant: 'destructive',
          }),
      },
    );
  };
  return { send, pending: answer.isPending };
}

/** Yes and No to one question, each naming the want for a screen reader. */
function AnswerButtons({ question }: { question: WantQuestion }) {
  const { t } = useLingui();
  const { send, pending } = useWantAnswer();
  const title = question.title;
  return (
    <span className="flex gap-2">
      <Button
        size="sm"
        disabled={pending}
        onClick={() => send(question, true)}
        aria-label={t`Yes, this filled my want: ${title}`}
      >
        <Trans>Yes</Trans>
      </Button>
      <Button
        size="sm"
        variant="secondary"
        disabled={pending}
        onClick={() => send(question, false)}
        aria-label={t`No, I am still looking for: ${title}`}
      >
        <Trans>No</Trans>
      </Button>
    </span>
  );
}

/**
 * "Did this fill your want?" on a completed barter's page (issue 30, ADR 073): one line per want of
 * the member that an item they received matches, answered with one click. Yes fulfils the want (it
 * leaves the active Want List and stops matching); No only takes the question away. Nothing shows
 * when there is nothing to ask (a barter not completed, a want the trade named, fulfilled at once).
 */
export function WantQuestions({ barterRequestId }: { barterRequestId: number }) {
  const questions = useWantQuestions(barterRequestId);
  const rows = questions.data ?? [];
  if (rows.length === 0) return null;

  return (
    <section
      aria-labelledby="want-questions-heading"
      className="mx-auto mt-4 grid w-full max-w-3xl gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4"
    >
      <h2 id="want-questions-heading" className="text-base font-semibold">
        <Trans>Did this fill your want?</Trans>
      </h2>
      <ul className="grid gap-2">
        {rows.map((question) => (
          <li key={question.wantId} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0 break-words font-medium">{question.title}</span>
            <AnswerButtons question={question} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The same question on the want's row of the Want List (issue 30, ADR 073), one per completed barter
 * that may have met it, with a link to that barter: a member who never opens the barter's page again
 * is still asked.
 */
export function WantRowQuestions({ questions }: { questions: WantQuestion[] }) {
  const { t } = useLingui();
  if (questions.length === 0) return null;
  return (
    <ul
      aria-label={t`Questions about this want`}
      className="mt-1 grid gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-2"
    >
      {questions.map((question) => (
        <li key={question.barterRequestId} className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 text-sm">
            <Trans>
              Did{' '}
              <Link href={paths.barter(question.barterRequestId)} className="font-medium underline">
                this completed barter
              </Link>{' '}
              fill your want?
            </Trans>
          </span>
          <AnswerButtons question={question} />
        </li>
      ))}
    </ul>
  );
}
