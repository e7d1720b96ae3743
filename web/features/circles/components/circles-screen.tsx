import { ArrowLeft } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import { CIRCLE_STATUS_LABELS, type Circle } from '../../../../common/schemas/circles';
import { paths } from '../../../app/paths';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ListStatus } from '../../../components/ui/list-status';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { flattenOwnList } from '../../../lib/own-list';
import { formatRelativeTime } from '../../../i18n/format';
import { useCircleList } from '../api/circles';
import { sentenceOf } from '../circle-format';
import { othersOf } from './circle-actions';
import { CIRCLES_INTRO, ProposedCircles } from './trade-circles-section';

/** One past circle: with whom, what the viewer gave and got, how it ended, when; opens its page. */
function PastCircleRow({ circle }: { circle: Circle }) {
  return (
    <li className="relative grid gap-1 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-300">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Link
          href={paths.circle(circle.id)}
          className="font-semibold text-brand-800 after:absolute after:inset-0 after:rounded-xl focus-visible:underline"
        >
          Trade circle with {othersOf(circle)}
        </Link>
        <Badge tone={circle.status === 'accepted' || circle.status === 'completed' ? 'success' : 'neutral'}>
          {CIRCLE_STATUS_LABELS[circle.status]}
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
          All Barters
        </Link>
      </Button>
      <div className="grid gap-1">
        <h1 id="circles-heading" className="text-2xl font-bold">
          Trade circles
        </h1>
        <p className="text-slate-600">{CIRCLES_INTRO}</p>
      </div>
      <section aria-labelledby="waiting-circles-heading" className="grid gap-3">
        <h2
          id="waiting-circles-heading"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold outline-none"
        >
          Waiting for answers
        </h2>
        <ListStatus
          isLoading={proposed.isLoading}
          isError={proposed.isError}
          count={waiting.length}
          errorText="These trade circles could not be loaded. Please try again."
          emptyText="No trade circles are waiting for answers."
        />
        {waiting.length > 0 ? (
          <ProposedCircles rows={waiting} query={proposed} onGone={() => heading.current?.focus()} />
        ) : null}
      </section>
      <section aria-labelledby="past-circles-heading" className="grid gap-3">
        <h2 id="past-circles-heading" className="text-lg font-semibold">
          Past trade circles
        </h2>
        <ListStatus
          isLoading={past.isLoading}
          isError={past.isError}
          count={done.length}
          errorText="These trade circles could not be loaded. Please try again."
          emptyText="Accepted, completed, declined, expired and canceled trade circles will show here."
        />
        {done.length > 0 ? (
          <ul className="grid gap-3">
            {done.map((circle) => (
              <PastCircleRow key={circle.id} circle={circle} />
            ))}
          </ul>
        ) : null}
        <LoadMoreButton query={past} label="Load More Circles" />
      </section>
    </section>
  );
}
