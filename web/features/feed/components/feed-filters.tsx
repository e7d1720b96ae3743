import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { DISTANCE_OPTIONS_MILES } from '#common/constants.ts';
import type { FeedSort } from '#common/schemas/feed.ts';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { Label } from '#web/components/ui/label.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { formatRadius } from '#web/i18n/format.ts';
import { CONDITION_FILTERS } from '#web/lib/item-condition.ts';

const SORT_LABELS: Record<FeedSort, MessageDescriptor> = {
  recent: msg`Recent`,
  distance: msg`Distance`,
  value: msg`Value`,
  match: msg`Match Score`,
};

export interface FilterValues {
  radius: number;
  sort: FeedSort;
  /** '' for any condition. */
  condition: ItemCondition | '';
}

/**
 * The feeds' filters (spec section 2, ADR 082's addendum): Distance, Sort by and Condition, labelled
 * native selects; the home feed and the search results (ADR 089) show the same. `sorts` are the
 * orders offered (Match Score only where there is a match); `idPrefix` keeps the ids apart.
 */
export function FeedFilters({
  values,
  onChange,
  sorts,
  idPrefix = 'feed',
}: {
  values: FilterValues;
  onChange: (values: FilterValues) => void;
  sorts: readonly FeedSort[];
  idPrefix?: string;
}) {
  const { t } = useLingui();
  return (
    <>
      <div className="grid gap-1">
        <Label htmlFor={`${idPrefix}-distance`}>
          <Trans>Distance</Trans>
        </Label>
        <Select
          id={`${idPrefix}-distance`}
          className="w-36"
          value={values.radius}
          onChange={(event) => onChange({ ...values, radius: Number(event.target.value) })}
        >
          {DISTANCE_OPTIONS_MILES.map((miles) => (
            <option key={miles} value={miles}>
              {formatRadius(miles)}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${idPrefix}-sort`}>
          <Trans>Sort by</Trans>
        </Label>
        <Select
          id={`${idPrefix}-sort`}
          className="w-40"
          value={values.sort}
          onChange={(event) => onChange({ ...values, sort: event.target.value as FeedSort })}
        >
          {sorts.map((value) => (
            <option key={value} value={value}>
              {t(SORT_LABELS[value])}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${idPrefix}-condition`}>
          <Trans>Condition</Trans>
        </Label>
        <Select
          id={`${idPrefix}-condition`}
          className="w-44"
          value={values.condition}
          onChange={(event) => onChange({ ...values, condition: event.target.value as ItemCondition | '' })}
        >
          <option value="">{t`Any condition`}</option>
          {CONDITION_FILTERS.map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </Select>
      </div>
    </>
  );
}
