import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef } from 'react';
import { Link } from 'wouter';
import type { Circle } from '#common/schemas/circles.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { formatDateTime } from '#web/i18n/format.ts';
import { acceptedCount, CIRCLE_STATUS_MESSAGES, sentenceOf, timeLeft } from '#web/lib/circle-format.ts';
import { paths } from '#web/lib/paths.ts';
import { CircleActions, othersOf } from './circle-actions';
import { CircleLoop } from './circle-loop';

/**
 * A proposed circle in a list: who is in it, the sentence, the loop with who has accepted, the time
 * left, Accept and Decline, and its page. `onGone` runs when the member's step took it off the list
 * (declined, or accepted by the last member): the list moves the focus.
 */
export function CircleCard({ circle, onGone }: { circle: Circle; onGone?: () => void }) {
  const { t } = useLingui();
  const headingId = useId();
  const status = useRef<HTMLParagraphElement>(null);
  const others = othersOf(circle);
  const expiresTitle = (expiresAt: string) => {
    const date = formatDateTime(expiresAt);
    return t`Expires ${date}`;
  };
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="font-semibold text-slate-900">
            <Trans>Trade circle with {others}</Trans>
          </h3>
          <Badge tone="brand">{t(CIRCLE_STATUS_MESSAGES[circle.status])}</Badge>
        </div>
        <p className="text-sm text-slate-800">{sentenceOf(circle)}</p>
        <CircleLoop circle={circle} />
        <p
          ref={status}
          tabIndex={-1}
          className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 outline-none"
        >
          <span>{acceptedCount(circle)}</span>
          {circle.expiresAt ? (
            <time dateTime={circle.expiresAt} title={expiresTitle(circle.expiresAt)}>
              {timeLeft(circle.expiresAt)}
            </time>
          ) : null}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CircleActions
            circle={circle}
            onDone={(next, action) => {
              if (action === 'decline' || next.status !== 'proposed') onGone?.();
              else status.current?.focus();
            }}
          />
          <Link href={paths.circle(circle.id)} className="text-sm font-medium text-brand-800 underline">
            <Trans>
              See the whole circle <span className="sr-only">with {others}</span>
            </Trans>
          </Link>
        </div>
      </article>
    </li>
  );
}
