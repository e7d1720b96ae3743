import { Trans, useLingui } from '@lingui/react/macro';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListStatus } from '#web/components/ui/list-status.tsx';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { useMemberWants } from '#web/lib/member.ts';

/** What a member is looking for: their active wants, with category and Service. */
export function MemberWants({ memberId, name }: { memberId: string; name: string }) {
  const { t } = useLingui();
  const query = useMemberWants(memberId);
  const { data: wants = [], isLoading, isError } = query;
  return (
    <section aria-labelledby="member-wants-heading" className="grid gap-3">
      <h2 id="member-wants-heading" className="text-lg font-semibold">
        <Trans>Looking for</Trans>
      </h2>
      <ListStatus
        isLoading={isLoading}
        isError={isError}
        read={query}
        count={wants.length}
        errorText={t`Their wants could not be loaded. Please try again.`}
        emptyText={t`${name} has no wants listed right now, so they are open to offers.`}
      />
      {wants.length > 0 ? (
        <ul className="flex flex-wrap gap-2">
          {wants.map((want) => (
            <li
              key={want.id}
              className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm"
            >
              <span className="font-medium text-slate-900">{want.title}</span>
              <Badge tone="brand">{translateKnown(want.category)}</Badge>
              {want.isService ? (
                <Badge tone="accent">
                  <Trans>Service</Trans>
                </Badge>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
