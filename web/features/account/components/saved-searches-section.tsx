import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { SAVED_SEARCHES_MAX } from '#common/alert-rules.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatRadius } from '#web/i18n/format.ts';
import { i18n } from '#web/i18n/i18n.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { CONDITION_FILTERS } from '#web/lib/item-condition.ts';
import { useRemoveSavedSearch, useSavedSearches } from '#web/lib/saved-searches.ts';

/** A saved filter's level in words ("Like new or better"); 'for-parts' (API only) reads "For parts or better". */
function conditionFilterLabel(condition: ItemCondition): string {
  const found = CONDITION_FILTERS.find(([value]) => value === condition);
  return i18n._(found ? found[1] : msg`For parts or better`);
}

/**
 * The member's saved searches (issue 31, ADR 084): what each looks for and how far, each with Remove.
 * A new listing that matches one alerts them; the feed's Save search adds one.
 */
export function SavedSearchesSection() {
  const { t } = useLingui();
  const searches = useSavedSearches();
  const remove = useRemoveSavedSearch();
  const rows = searches.data ?? [];
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Saved searches</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          We tell you when a new listing matches one, nearest neighbours first. Save a search, or just its
          distance and condition, from the search results (up to {SAVED_SEARCHES_MAX}).
        </Trans>
      </p>
      {searches.isError ? (
        <p className="mt-4 text-sm text-red-700">
          <Trans>Could not load your saved searches.</Trans>
        </p>
      ) : rows.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          {searches.isLoading ? t`Loading...` : t`No saved searches yet.`}
        </p>
      ) : (
        <ul className="mt-4 grid gap-2">
          {rows.map((search) => {
            const radius = formatRadius(search.radius);
            return (
              <li
                key={search.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
              >
                <div className="min-w-0">
                  <p className="font-medium break-words text-slate-900">{search.name}</p>
                  <p className="text-sm break-words text-slate-600">
                    {search.q ? t`"${search.q}" within ${radius}` : t`Every new listing within ${radius}`}
                    {search.condition ? ` · ${conditionFilterLabel(search.condition)}` : null}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={remove.isPending}
                  aria-label={t`Remove saved search ${search.name}`}
                  onClick={() =>
                    remove.mutate(search.id, {
                      onError: (error) =>
                        toast({
                          title: t`Not removed`,
                          description: serverMessageOf(error, t`Please try again.`),
                          variant: 'destructive',
                        }),
                    })
                  }
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
