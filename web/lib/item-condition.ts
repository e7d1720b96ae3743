import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ItemCondition } from '#common/schemas/listings.ts';
import { i18n } from '../i18n/i18n';

/** A good's condition in words (ADR 082): the item form, cards, the detail and the feed filter. */
export const ITEM_CONDITION_LABELS: Record<ItemCondition, MessageDescriptor> = {
  new: msg`New`,
  'like-new': msg`Like new`,
  good: msg`Good`,
  fair: msg`Fair`,
  'for-parts': msg`For parts`,
};

/**
 * The condition filter's levels (ADR 082, addendum): a level and everything better, as a neighbour
 * asks ("like new or better"); the feeds, the search results and saved searches (ADR 089) use them.
 */
export const CONDITION_FILTERS: ReadonlyArray<[ItemCondition, MessageDescriptor]> = [
  ['new', msg`New`],
  ['like-new', msg`Like new or better`],
  ['good', msg`Good or better`],
  ['fair', msg`Fair or better`],
];

/** The condition in the reader's language. */
export function conditionLabel(condition: ItemCondition): string {
  return i18n._(ITEM_CONDITION_LABELS[condition]);
}
