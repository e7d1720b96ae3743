import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import type { Circle } from '#common/schemas/circles.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { formatRelativeTime } from '#web/i18n/format.ts';
import { CIRCLE_STATUS_MESSAGES, sentenceOf } from '#web/lib/circle-format.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { paths } from '#web/lib/paths.ts';
import { useCircleList } from '../api/circles';
import { othersOf } from './circle-actions';
import { circlesIntro, ProposedCircles } from './trade-circles-section';

/** One past circle: with whom, what the viewer gave and got, how it ended, when; opens its page. */
function PastCircleRow({ circle }: { circle: Circle }) {
  const { t } = useLingui();
  const others = othersOf(circle);
  return (
    <li className="relative grid gap-1 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-300">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Link
          href={paths.circle(circle.id)}
          className="font-semibold text-brand-800 after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
        >
          <Trans>Trade circle with {others}</Trans>
        </Link>
        <Badge tone={circle.status === 'accepted' || circle.status === 'completed' ? 'success' : 'neutral'}>
          {t(CIRCLE_STATUS_MESSAGES[circle.status])}
        </Badge>
        <time dateTime={circle.createdAt} className="text-slate-600">
          {formatRelativeTime(circle.createdAt)}
        </time>
      </div>
      <p className="text-sm text-slate-800">{sentenceOf(circle)}</p>
    </li>
  );
}

/** /circles: the member's trade circles waiting for an answer, and past ones. */
export function CirclesScreen() {
  const { t } = useLingui();
  const proposed = useCircleList('proposed');
  const past = useCircleList('past');
  const waiting = flattenOwnList(proposed.data?.pages).rows;
  const done = flattenOwnList(past.data?.pages).rows;
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <section aria-labelledby="circles-heading" className="grid gap-6">
      <Button asChild variant="ghost" className="justify-self-start">
        <Link href={paths.barters}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          <Trans>All Barters</Trans>
        </Link>
      </Button>
      <div className="grid gap-1">
        <h1 id="circles-heading" className="text-2xl font-bold">
          <Trans>Trade circles</Trans>
        </h1>
        <p className="text-slate-600">{circlesIntro()}</p>
      </div>
      <section aria-labelledby="waiting-circles-heading" className="grid gap-3">
        <h2
          id="waiting-circles-heading"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold outline-none"
        >
          <Trans>Waiting for answers</Trans>
        </h2>
        <ListStatus
          isLoading={proposed.isLoading}
          isError={proposed.isError}
          read={proposed}
          count={waiting.length}
          errorText={t`These trade circles could not be loaded. Please try again.`}
          emptyText={t`No trade circles are waiting for answers.`}
        />
        {waiting.length > 0 ? (
          <ProposedCircles rows={waiting} query={proposed} onGone={() => heading.current?.focus()} />
        ) : null}
      </section>
      <section aria-labelledby="past-circles-heading" className="grid gap-3">
        <h2 id="past-circles-heading" className="text-lg font-semibold">
          <Trans>Past trade circles</Trans>
        </h2>
        <ListStatus
          isLoading={past.isLoading}
          isError={past.isError}
          read={past}
          count={done.length}
          errorText={t`These trade circles could not be loaded. Please try again.`}
          emptyText={t`Accepted, completed, declined, expired and canceled trade circles will show here.`}
        />
        {done.length > 0 ? (
          <ul className="grid gap-3">
            {done.map((circle) => (
              <PastCircleRow key={circle.id} circle={circle} />
            ))}
          </ul>
        ) : null}
        <LoadMoreButton query={past} label={t`Load More Circles`} />
      </section>
    </section>
  );
}
