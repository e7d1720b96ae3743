import { t } from '@lingui/core/macro';
import { cn } from '../../lib/utils';

/** The badge's look: the server's drawn pages always carry its styles (web/entry-server.tsx, ADR 113). */
export const COUNT_BADGE_CLASSES =
  'absolute -top-1 -right-1 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-xs font-semibold text-white';

/**
 * The red count on an icon (unread notifications, messages); nothing at 0. Decorative: the control it
 * sits on says the count in its accessible name (unreadLabel).
 */
export function CountBadge({ count, className }: { count: number; className?: string }) {
  if (count <= 0) return null;
  return (
    <span aria-hidden="true" className={cn(COUNT_BADGE_CLASSES, className)}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

/**
 * "Messages", or "Messages, 2 unread": the accessible name of an icon with a CountBadge. `name` is
 * already in the active language; call at render time.
 */
export function unreadLabel(name: string, count: number): string {
  return count > 0 ? t`${name}, ${count} unread` : name;
}
