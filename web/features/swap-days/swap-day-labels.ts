import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SwapDayStatus } from '../../../common/schemas/swap-days';

/**
 * The web's own words for common/'s English swap day states (SWAP_DAY_STATUS_LABELS stays for the
 * server): render with `t(SWAP_DAY_STATUS_MESSAGES[status])` (ADR 036).
 */
export const SWAP_DAY_STATUS_MESSAGES: Record<SwapDayStatus, MessageDescriptor> = {
  open: msg`Open for want lists`,
  closed: msg`Matching`,
  solved: msg`Matched`,
  cancelled: msg`Canceled`,
};
