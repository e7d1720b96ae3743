// Swap days' published surface (issue 29): what other features and the app may use; everything
// else in this folder is the feature's own.

export { swapDayDeadlineJob } from './swap-day-deadline-job';
export { swapDaysPlugin, sweepSwapDays } from './swap-day-match';
export { exportSwapDaysOf } from './swap-days-repository';
export { swapDaysRoutes } from './swap-days-routes';
export { getSwapDay } from './swap-days-service';
