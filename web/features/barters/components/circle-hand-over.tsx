import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import type { CircleHandOverProps } from '#web/components/feature-slots.tsx';
import { BARTER_STATUS_MESSAGES } from '#web/lib/barter-labels.ts';
import { paths } from '#web/lib/paths.ts';
import { useBarter } from '../api/barters';
import { HandOverCodes } from './hand-over-codes';
import { HandOverPlanSection } from './hand-over-plan';

/**
 * One hand-over of a trade circle on the circle's page (issue 30, ADR 081; the CircleHandOver slot,
 * ADR 068): its plan (ADR 077) and confirmation by code (ADR 075) while accepted, its state after,
 * and a link to its own page (both confirm, ratings).
 */
export function CircleHandOver({ barterId }: CircleHandOverProps) {
  const { t } = useLingui();
  const query = useBarter(barterId);
  if (query.isLoading) {
    return (
      <p className="text-sm text-slate-600">
        <Trans>Loading the hand-over...</Trans>
      </p>
    );
  }
  const barter = query.data;
  if (!barter) {
    return (
      <p role="alert" className="text-sm text-red-700">
        <Trans>The hand-over could not be loaded. Please try again.</Trans>
      </p>
    );
  }
  const status = t(BARTER_STATUS_MESSAGES[barter.status]);
  return (
    <div className="grid gap-4">
      <p className="text-sm text-slate-700">
        <Trans>
          This hand-over: {status}.{' '}
          <Link href={paths.barter(barter.id)} className="font-medium text-brand-800 underline">
            Open its page
          </Link>{' '}
          to confirm it without codes or to rate it.
        </Trans>
      </p>
      {barter.status === 'accepted' ? <HandOverPlanSection barter={barter} /> : null}
      {barter.status === 'accepted' ? <HandOverCodes barter={barter} /> : null}
    </div>
  );
}
