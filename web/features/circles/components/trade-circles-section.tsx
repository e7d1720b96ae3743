import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { CIRCLE_EXPIRY_DAYS, type Circle } from '#common/schemas/circles.ts';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { paths } from '#web/lib/paths.ts';
import { useCircleList } from '../api/circles';
import { CircleCard } from './circle-card';

/** What a circle is, in one line, where circles are listed (in the active language: call at render). */
export function circlesIntro(): string {
  const days = CIRCLE_EXPIRY_DAYS;
  return t`Neighbors whose wants line up in a loop: each gives one item to the next. A circle starts when everyone accepts within ${days} days; one decline dissolves it.`;
}

/** The proposed circles as cards, a page at a time; `onGone` as CircleCard's. */
export function ProposedCircles({
  rows,
  query,
  onGone,
}: {
  rows: Circle[];
  query: ReturnType<typeof useCircleList>;
  onGone: () => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <ul className="grid gap-3">
        {rows.map((circle) => (
          <CircleCard key={circle.id} circle={circle} onGone={onGone} />
        ))}
      </ul>
      <LoadMoreButton query={query} label={t`Load More Circles`} />
    </>
  );
}

/**
 * The Barters screen's "Trade circles": the circles waiting for the member's answer. Not shown while
 * there are none (only a link to past circles, when there are some); once shown, it stays for the
 * visit, so answering the last one does not pull the section away under the member.
 */
export function TradeCirclesSection() {
  const proposed = useCircleList('proposed');
  const { rows } = flattenOwnList(proposed.data?.pages);
  const none = proposed.isSuccess && rows.length === 0;
  const past = useCircleList('past', { enabled: none });
  const hasPast = (past.data?.pages[0]?.rows.length ?? 0) > 0;
  const [shown, setShown] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (rows.length > 0) setShown(true);
  }, [rows.length]);

  if (proposed.isError) {
    return (
      <p className="text-sm text-red-700">
        <Trans>Your trade circles could not be loaded. Please try again.</Trans>
      </p>
    );
  }
  if (!shown && rows.length === 0) {
    return hasPast ? (
      <p className="text-sm">
        <Link href={paths.circles} className="font-medium text-brand-800 underline">
          <Trans>Past trade circles</Trans>
        </Link>
      </p>
    ) : null;
  }
  return (
    <section
      aria-labelledby="trade-circles-heading"
      className="grid gap-3 rounded-2xl border border-brand-200 bg-brand-50 p-4"
    >
      <div className="grid gap-1">
        <h2
          id="trade-circles-heading"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-slate-900 outline-none"
        >
          <Trans>Trade circles</Trans>
        </h2>
        <p className="text-sm text-slate-700">{circlesIntro()}</p>
      </div>
      {rows.length > 0 ? (
        <ProposedCircles rows={rows} query={proposed} onGone={() => heading.current?.focus()} />
      ) : (
        <p className="text-sm text-slate-700">
          <Trans>No trade circles are waiting for your answer.</Trans>
        </p>
      )}
      <p className="text-sm">
        <Link href={paths.circles} className="font-medium text-brand-800 underline">
          <Trans>All your trade circles</Trans>
        </Link>
      </p>
    </section>
  );
}
