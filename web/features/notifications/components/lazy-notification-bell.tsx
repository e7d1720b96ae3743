import { Bell } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { CountBadge } from '#web/components/ui/count-badge.tsx';
import { withMessages } from '#web/i18n/i18n.ts';
import { useSettled } from '#web/lib/settled.ts';
import { bellLabel } from '../notification-text';

const LoadedNotificationBell = lazy(() =>
  withMessages(() => import('./notification-bell'), { background: true }).then((module) => ({
    default: module.NotificationBell,
  })),
);

/**
 * The header's bell (notification-bell.tsx), its menu code loaded once the page has settled or at the
 * member's first click on it (ADR 113; before, beside the first screen, ADR 033). Until it arrives, a
 * button that looks and reads the same stands in, with the same unread count; a click on it opens the
 * list as soon as the code is there.
 */
export function NotificationBell({ unread }: { unread: number }) {
  const [wanted, setWanted] = useState(false);
  const settled = useSettled();
  const placeholder = (
    <button
      type="button"
      aria-label={bellLabel(unread)}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => setWanted(true)}
      className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
    >
      <Bell className="h-5 w-5" aria-hidden="true" />
      <CountBadge count={unread} />
    </button>
  );
  if (!settled && !wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LoadedNotificationBell unread={unread} defaultOpen={wanted} />
    </Suspense>
  );
}
