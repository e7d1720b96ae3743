// Barters' published surface (issue 29): what other features and the app may use; everything else
// in this folder is the feature's own.

export { barterExpiryJob } from './barter-expiry';
export { bartersRoutes } from './barters-routes';
export { type HandOverCircles, ownHandOverCircles } from './hand-over-circles';
export { exportHandOversOf } from './hand-over-export';
export { handOverReminderJob } from './hand-over-reminders';
export {
  createHandOvers,
  type HandOverLoop,
  type LoopStep,
  type WrittenLoop,
  writeHandOvers,
} from './hand-overs';
export { noShowSettleJob } from './no-shows';
export { openBartersOnSql } from './open-barters';
