/**
 * Safety: blocks (who is hidden from whom), refusals of inappropriate text, photo screening, reports
 * and moderation.
 */
export { areHidden, assertNotHidden, hasBlocked } from './blocks';
export { hiddenMembersOf, notHiddenFrom } from './blocks-sql';
export {
  assertModerator,
  recordModerationAction,
  SCREENING_REPORTER,
  setModerator,
} from './moderation-service';
export {
  likelyExplicit,
  listingScreening,
  logUnscreened,
  type PhotoScreeningPolicy,
  photoScreeningPolicy,
  profilePhotoScreening,
  reportScreenedPhoto,
} from './photo-screening';
export { assertAppropriateFields, assertAppropriateFor, type RefusalKind } from './refusals';
export { refusalsJob } from './refusals-job';
export { safetyRoutes } from './safety-routes';
export { suspensionsJob } from './suspensions-job';
