import { Trans, useLingui } from '@lingui/react/macro';
import { MemberLink } from '#web/components/member-link.tsx';
import { ReportButton } from '#web/components/report-button.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { Stars } from '#web/components/ui/stars.tsx';
import { formatDate } from '#web/i18n/format.ts';
import { useUser } from '#web/lib/get-user.ts';
import { useMemberRatings } from '#web/lib/member.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';

/** The ratings a member received, newest first: stars, comment, who and when; Load More. */
export function MemberRatings({ memberId, name }: { memberId: string; name: string }) {
  const { t } = useLingui();
  const reportName = (raterName: string) => t`Report the rating from ${raterName}`;
  const query = useMemberRatings(memberId);
  const { user } = useUser();
  const { rows: ratings, total } = flattenOwnList(query.data?.pages);
  return (
    <section aria-labelledby="member-ratings-heading" className="grid gap-3">
      <h2 id="member-ratings-heading" className="text-lg font-semibold">
        <Trans>Ratings ({total})</Trans>
      </h2>
      <ListStatus
        isLoading={query.isLoading}
        isError={query.isError}
        read={query}
        count={ratings.length}
        errorText={t`Their ratings could not be loaded. Please try again.`}
        emptyText={t`${name} has not been rated yet.`}
      />
      {ratings.length > 0 ? (
        <ul className="grid gap-3">
          {ratings.map((rating) => (
            <li
              key={rating.id}
              className="grid gap-1 rounded-xl border border-slate-200 bg-white p-3 shadow-sm"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <Stars stars={rating.stars} />
                <time dateTime={rating.createdAt} className="text-xs text-slate-600">
                  {formatDate(rating.createdAt, { dateStyle: 'medium' })}
                </time>
              </div>
              {rating.comment ? <p className="whitespace-pre-line text-slate-800">{rating.comment}</p> : null}
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-slate-600">
                  <Trans>
                    From{' '}
                    <MemberLink
                      id={rating.rater.id}
                      name={rating.rater.id ? rating.rater.displayName : t`Former member`}
                      className="font-medium text-slate-800"
                    />
                  </Trans>
                </p>
                {rating.comment && rating.rater.id && rating.rater.id !== user?.id ? (
                  <ReportButton
                    targetKind="rating"
                    targetId={String(rating.id)}
                    what={t`this rating`}
                    accessibleName={reportName(rating.rater.displayName)}
                  />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <LoadMoreButton query={query} label={t`Load More Ratings`} />
    </section>
  );
}
