import { Trans } from '@lingui/react/macro';
import { MemberLayout } from '../../components/layout/member-layout';
import { useUser } from '../../features/auth/api/get-user';
import { ModerationQueue } from '../../features/safety/components/moderation-queue';
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
    </MemberLayout>
  );
}
