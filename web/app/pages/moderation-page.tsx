import { Trans } from '@lingui/react/macro';
import { DisputedNoShowsPanel } from '../../features/safety/components/disputed-no-shows';
import { ModerationQueue } from '../../features/safety/components/moderation-queue';
import { PublicSpotsPanel } from '../../features/safety/components/public-spots';
import { useUser } from '../../lib/get-user';
import { MemberLayout } from '../layout/member-layout';
import NotFoundPage from './not-found-page';

/** /moderation: moderators only (ADR 025); anyone else gets the 404 page. */
export default function ModerationPage() {
  const { user } = useUser();
  if (user?.role !== 'moderator') return <NotFoundPage />;
  return (
    <MemberLayout>
      <h1 className="mb-6 text-2xl font-bold text-slate-900">
        <Trans>Moderation</Trans>
      </h1>
      <ModerationQueue />
      <div className="mt-10">
        <DisputedNoShowsPanel />
      </div>
      <div className="mt-10">
        <PublicSpotsPanel />
      </div>
    </MemberLayout>
  );
}
