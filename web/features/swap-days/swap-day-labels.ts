import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { SwapDayMatchFailure, SwapDayMatchStage, SwapDayStatus } from '#common/schemas/swap-days.ts';

/**
 * The web's own words for common/'s English swap day states (SWAP_DAY_STATUS_LABELS stays for the
 * server): render with `t(SWAP_DAY_STATUS_MESSAGES[status])` (ADR 036).
 */
export const SWAP_DAY_STATUS_MESSAGES: Record<SwapDayStatus, MessageDescriptor> = {
  open: msg`Open for want lists`,
  closed: msg`Matching`,
  matching: msg`Matching`,
  solved: msg`Matched`,
  failed: msg`Matching failed`,
  cancelled: msg`Canceled`,
};

/** "Matching…" and where the match stands (ADR 050), as the live events bring it. */
export const SWAP_DAY_MATCH_STAGE_MESSAGES: Record<SwapDayMatchStage, MessageDescriptor> = {
  waiting: msg`Matching… starting in a moment.`,
  gathering: msg`Matching… gathering the offers and want lists.`,
  solving: msg`Matching… finding the loops that trade the most items.`,
  saving: msg`Matching… saving everyone’s hand-overs.`,
};

/** Why a match did not finish. */
export const SWAP_DAY_MATCH_FAILURE_MESSAGES: Record<SwapDayMatchFailure, MessageDescriptor> = {
  'time-limit': msg`Matching ran past its time limit without an answer.`,
  error: msg`Matching stopped because of an error on our side.`,
};
