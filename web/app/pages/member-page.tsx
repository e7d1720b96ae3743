import { Trans, useLingui } from '@lingui/react/macro';
import { PackageOpen } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import type { FeedItem } from '#common/schemas/feed.ts';
import { MEMBER_ERROR_CODES } from '#common/schemas/members.ts';
import { BackToHome } from '../../components/layout/back-to-home';
import { ReportButton } from '../../components/report-button';
import { LoadMoreButton } from '../../components/ui/load-more-button';
import { ItemCard, ItemCardSkeleton } from '../../features/feed/components/item-card';
import { ItemDetailDialog } from '../../features/feed/components/lazy-item-detail-dialog';
import { MemberProfileHeader } from '../../features/members/components/member-profile-header';
import { MemberRatings } from '../../features/members/components/member-ratings';
import { MemberWants } from '../../features/members/components/member-wants';
import { BlockButton } from '../../features/safety/components/block-button';
import { ApiError } from '../../lib/api-client';
import { useUser } from '../../lib/get-user';
import { useMember, useMemberItems } from '../../lib/member';
import { flattenOwnList } from '../../lib/own-list';
import { paths } from '../../lib/paths';
import { MemberLayout } from '../layout/member-layout';

/** The items a member offers, as the feed's cards (save and detail work the same), with Load More. */
function MemberItems({ memberId, name, own }: { memberId: string; name: string; own: boolean }) {
  const { t } = useLingui();
  const query = useMemberItems(memberId);
  const { rows: items, total } = flattenOwnList(query.data?.pages);
  const [opened, setOpened] = useState<FeedItem | null>(null);
  return (
    <section aria-labelledby="member-items-heading" aria-busy={query.isLoading} className="grid gap-3">
      <h2 id="member-items-heading" className="text-lg font-semibold">
        <Trans>Items offered ({total})</Trans>
      </h2>
      {query.isLoading ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <ItemCardSkeleton />
          <ItemCardSkeleton />
          <ItemCardSkeleton />
        </div>
      ) : query.isError ? (
        <p className="text-red-700">
          <Trans>Their items could not be loaded. Please try again.</Trans>
        </p>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">
          <PackageOpen className="h-8 w-8 text-slate-400" aria-hidden="true" />
          <p>
            <Trans>{name} is not offering anything right now.</Trans>
          </p>
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <ItemCard key={item.id} item={item} showMatch={false} own={own} onOpen={setOpened} />
          ))}
        </div>
      )}
      <LoadMoreButton query={query} label={t`Load More Items`} />
      <ItemDetailDialog
        itemId={opened?.id ?? null}
        title={opened?.title ?? ''}
        onClose={() => setOpened(null)}
      />
    </section>
  );
}

/**
 * A member's public page (issue 13): who they are and their record, what they offer, what they want
 * and the ratings they received; "Member not found" for an unknown id (and to a member they blocked),
 * "You blocked this member" to the member who blocked them. `viewerId`: the signed-in member.
 */
export function MemberView({ memberId, viewerId }: { memberId: string; viewerId: string | undefined }) {
  const { t } = useLingui();
  const { data: member, isLoading, error } = useMember(memberId);
  const notFound = error instanceof ApiError && error.status === 404;
  const blockedByYou = error instanceof ApiError && error.code === MEMBER_ERROR_CODES.blockedByYou;
  if (isLoading)
    return (
      <p className="text-slate-600">
        <Trans>Loading...</Trans>
      </p>
    );
  if (blockedByYou) {
    // Only the member who blocked them is told; the blocked member sees "Member not found" (issue 28).
    return (
      <div className="grid justify-items-start gap-2">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>You blocked this member</Trans>
        </h1>
        <p className="text-slate-600">
          <Trans>
            Neither of you sees the other's page or listings. To see them again, unblock them under{' '}
            <Link href={paths.profileTab('account')} className="font-medium text-brand-800 underline">
              Blocked members
            </Link>{' '}
            in your account.
          </Trans>
        </p>
        <BackToHome />
      </div>
    );
  }
  if (notFound) {
    return (
      <div className="grid justify-items-start gap-2">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>Member not found</Trans>
        </h1>
        <p className="text-slate-600">
          <Trans>This member does not exist, or their account was closed.</Trans>
        </p>
        <BackToHome />
      </div>
    );
  }
  if (!member)
    return (
      <p className="text-red-700">
        <Trans>This member could not be loaded. Please try again.</Trans>
      </p>
    );
  return (
    <div className="grid gap-8">
      <MemberProfileHeader member={member} />
      {member.id !== viewerId && (
        <div className="-mt-6 flex flex-wrap justify-end gap-2">
          <ReportButton
            targetKind="member"
            targetId={member.id}
            what={member.displayName}
            label={t`Report member`}
          />
          <BlockButton memberId={member.id} name={member.displayName} />
        </div>
      )}
      <MemberItems memberId={member.id} name={member.displayName} own={member.id === viewerId} />
      <MemberWants memberId={member.id} name={member.displayName} />
      <MemberRatings memberId={member.id} name={member.displayName} />
    </div>
  );
}

/** /members/:id for signed-in members. */
export default function MemberPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useUser();
  return (
    <MemberLayout>
      <MemberView memberId={id} viewerId={user?.id} />
    </MemberLayout>
  );
}
