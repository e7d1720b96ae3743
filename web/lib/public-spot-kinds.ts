import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PublicSpotKind } from '#common/schemas/public-spots.ts';

/** What kind of public spot it is, in words (ADR 080): the moderators' screen and the plan form. */
export const PUBLIC_SPOT_KIND_LABELS: Record<PublicSpotKind, MessageDescriptor> = {
  library: msg`Library`,
  station: msg`Station`,
  cafe: msg`Café`,
  police_safe_trade: msg`Police safe-trade spot`,
  other: msg`Other public place`,
};
