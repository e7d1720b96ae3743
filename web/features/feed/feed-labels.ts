import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { FeedName } from '#common/feed-names.ts';

/** The feeds' names (common/feed-names.ts has only their keys), shown with `t(FEED_LABELS[name])`. */
export const FEED_LABELS: Record<FeedName, MessageDescriptor> = {
  'barter-match': msg`Barter Match`,
  'random-barter': msg`Random Barter`,
  everything: msg`Everything`,
};

/** The name of each feed's list of cards (its section and heading for screen readers). */
export const FEED_ITEMS_LABELS: Record<FeedName, MessageDescriptor> = {
  'barter-match': msg`Barter Match items`,
  'random-barter': msg`Random Barter items`,
  everything: msg`Everything items`,
};
