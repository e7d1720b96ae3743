/** Account: registering, the links mailed to a member, settings, sessions, their data (export, deletion). */
export { accountLinkRoutes, accountSettingsRoutes } from './account-routes';
/** A mailed link's token, issued directly (a test that stands in for the mail). */
export { issueToken } from './account-tokens';
