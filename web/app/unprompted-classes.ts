import { COUNT_BADGE_CLASSES } from '../components/ui/count-badge';
import { TOAST_CLASSES } from '../components/ui/toaster';
import { BOTTOM_NAV_BADGE_CLASSES } from './layout/bottom-nav';

/**
 * The classes of what the app draws on its own, with no tap or key from the member, while a drawn
 * page carries only its own part of the stylesheet (ADR 111): an unread count that a live update
 * raises and a toast shown as the app starts. The server writes their styles into every drawn page
 * (server/plugins/page-render.ts, through web/entry-server.tsx), so they never show unstyled before
 * the whole stylesheet applies (ADR 113). Anything new the app draws on its own joins this list.
 */
export const UNPROMPTED_CLASSES: readonly string[] = [
  COUNT_BADGE_CLASSES,
  BOTTOM_NAV_BADGE_CLASSES,
  ...Object.values(TOAST_CLASSES),
].flatMap((classes) => classes.split(/\s+/).filter(Boolean));
