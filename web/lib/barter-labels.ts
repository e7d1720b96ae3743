import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BarterAction, BarterBox, BarterStatus } from '#common/barter-machine.ts';

/**
 * The web's own labels of the barter machine (common/barter-machine.ts keeps the server's English
 * ones): render with `t(BARTER_STATUS_MESSAGES[status])` (ADR 036).
 */
export const BARTER_STATUS_MESSAGES: Record<BarterStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  accepted: msg`Accepted`,
  completed: msg`Completed`,
  declined: msg`Declined`,
  withdrawn: msg`Withdrawn`,
  countered: msg`Countered`,
  cancelled: msg`Canceled`,
  expired: msg`Expired`,
};

/** The buttons of each action (message and rate have their own forms). */
export const BARTER_ACTION_MESSAGES: Record<BarterAction, MessageDescriptor> = {
  accept: msg`Accept`,
  decline: msg`Decline`,
  counter: msg`Counter`,
  withdraw: msg`Withdraw`,
  cancel: msg`Cancel barter`,
  confirm: msg`Confirm completed`,
  rate: msg`Rate`,
  message: msg`Send`,
};

/** The Barters screen's tabs. */
export const BARTER_BOX_MESSAGES: Record<BarterBox, MessageDescriptor> = {
  incoming: msg`Incoming`,
  outgoing: msg`Outgoing`,
  active: msg`Active`,
  past: msg`Past`,
};
