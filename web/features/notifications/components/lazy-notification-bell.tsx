import { Bell } from 'lucide-react';
import { lazy } from 'react';
import { CountBadge } from '#web/components/ui/count-badge.tsx';
import { DeferredMenu } from '#web/components/ui/deferred-menu.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { bellLabel } from '../notification-text';

const LoadedNotificationBell = lazy(() =>
  withMessages(() => import('./notification-bell'), { background: true }).then((module) => ({
    default: module.NotificationBell,
  })),
);

/**
 * The header's bell (notification-bell.tsx), its menu code loaded once the page has settled or at the
 * member's first use of it (ADR 113; before, beside the first screen, ADR 033). Until it arrives, a
 * button that looks and reads the same stands in, with the same unread count; opening it opens the
 * list as soon as the code is there.
 */
export function NotificationBell({ unread }: { unread: number }) {
  return (
    <DeferredMenu
      standIn={(props) => (
        <button
          type="button"
          aria-label={bellLabel(unread)}
          {...props}
          className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
        >
          <Bell className="h-5 w-5" aria-hidden="true" />
          <CountBadge count={unread} />
        </button>
      )}
      menu={(arrival) => <LoadedNotificationBell unread={unread} arrival={arrival} />}
    />
  );
}
