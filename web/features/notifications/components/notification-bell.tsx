import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useQueryClient } from '@tanstack/react-query';
import { Bell } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { Notification } from '#common/schemas/notifications.ts';
import { CountBadge } from '#web/components/ui/count-badge.tsx';
import { type MenuArrival, useMenuArrival } from '#web/components/ui/deferred-menu.tsx';
import { formatRelativeTime } from '#web/i18n/format.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { paths } from '#web/lib/paths.ts';
import { cn } from '#web/lib/utils.ts';
import {
  markLoadedRead,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useMarkShownNotificationsRead,
  useNotifications,
} from '../api/notifications';
import { bellLabel, notificationText } from '../notification-text';

/** Kinds that open the hand-over's own page even when it is a swap day's. */
const OPENS_THE_BARTER: ReadonlySet<Notification['kind']> = new Set([
  'message_received',
  'hand_over_reminder_day',
  'hand_over_reminder_hour',
  'want_question',
]);

const itemClass =
  'flex w-full cursor-pointer gap-3 rounded-md px-3 py-2 text-left outline-none data-[highlighted]:bg-slate-100';

/** What one entry says, heard as one sentence: "Unread: Ann R. proposed a barter, 5 minutes ago". */
function entryLabel(notification: Notification): string {
  const text = notificationText(
    notification.kind,
    notification.actor?.displayName ?? null,
    notification.count,
    notification.handOver,
    notification.listing?.matched ?? notification.item?.title ?? null,
  );
  const when = formatRelativeTime(notification.createdAt);
  const day = notification.swapDay?.name;
  if (day !== undefined) {
    return notification.read
      ? t`${text} (swap day ${day}), ${when}`
      : t`Unread: ${text} (swap day ${day}), ${when}`;
  }
  return notification.read ? t`${text}, ${when}` : t`Unread: ${text}, ${when}`;
}

/** A swap day's entry names the day (issue 30). */
function SwapDayLabel({ name }: { name: string }) {
  return (
    <span className="block text-xs font-medium text-brand-800">
      <Trans>Swap day: {name}</Trans>
    </span>
  );
}

/** What one entry shows: an unread dot, the sentence (bold while unread), and how long ago. */
function NotificationContent({ notification }: { notification: Notification }) {
  return (
    <>
      <span
        aria-hidden="true"
        className={cn('mt-1.5 h-2 w-2 shrink-0 rounded-full', notification.read ? '' : 'bg-brand-600')}
      />
      <span className="min-w-0 flex-1">
        <span
          className={cn(
            'block text-sm',
            notification.read ? 'text-slate-700' : 'font-semibold text-slate-900',
          )}
        >
          {notificationText(
            notification.kind,
            notification.actor?.displayName ?? null,
            notification.count,
            notification.handOver,
            notification.listing?.matched ?? notification.item?.title ?? null,
          )}
        </span>
        {notification.swapDay ? <SwapDayLabel name={notification.swapDay.name} /> : null}
        <time dateTime={notification.createdAt} className="block text-xs text-slate-600">
          {formatRelativeTime(notification.createdAt)}
        </time>
      </span>
    </>
  );
}

/**
 * The header's bell (issue 13): the unread count on the icon, and on click the member's notifications,
 * newest first. Opening it marks what it shows read (issue 28): the count drops to 0 at once, while the
 * entries keep their unread marks until it closes, so the member sees what was new. Each entry opens
 * its barter (or trade circle); "Mark all as read" clears the marks too. The list is read when the bell
 * first opens and again when a live event makes it stale.
 */
export function NotificationBell({ unread, arrival }: { unread: number; arrival?: MenuArrival }) {
  // Open from the start when the member opened the stand-in before this code arrived (lazy-notification-bell.tsx).
  const { defaultOpen, triggerRef, contentRef } = useMenuArrival(arrival);
  const [open, setOpen] = useState(defaultOpen);
  const queryClient = useQueryClient();
  const query = useNotifications(open);
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const markShown = useMarkShownNotificationsRead();
  const { rows: loaded } = flattenOwnList(query.data?.pages);
  /**
   * The entries that were unread while this opening showed them. They keep their marks until the
   * list closes even when it is read again meanwhile (the live stream opening, a new notification),
   * by which time the server has them read because the opening marked them so.
   */
  const keptUnread = useRef(new Set<number>());
  /** "Mark all as read" lets go of the marks up to this id (the loaded rows may still say unread). */
  const releasedUpTo = useRef(0);
  if (open) {
    for (const row of loaded) if (!row.read && row.id > releasedUpTo.current) keptUnread.current.add(row.id);
  }
  const rows = open
    ? loaded.map((row) => (row.read && keptUnread.current.has(row.id) ? { ...row, read: false } : row))
    : loaded;
  const anyUnread = unread > 0 || rows.some((row) => !row.read);
  const newestShown = rows[0]?.id;
  /** The newest entry already marked read on the server (ids only grow). */
  const markedUpTo = useRef(0);
  const markShownRead = markShown.mutate;
  useEffect(() => {
    if (!open || newestShown === undefined || newestShown <= markedUpTo.current || !anyUnread) return;
    markedUpTo.current = newestShown;
    markShownRead(newestShown);
  }, [open, newestShown, anyUnread, markShownRead]);
  const onOpenChange = (next: boolean) => {
    // Closed: the entries it marked read lose their unread marks too (next opening shows them read).
    if (!next && markedUpTo.current > 0) markLoadedRead(queryClient, undefined, markedUpTo.current);
    if (!next) {
      keptUnread.current.clear();
      releasedUpTo.current = 0;
    }
    setOpen(next);
  };
  const markOnSelect = (notification: Notification) => {
    keptUnread.current.delete(notification.id);
    if (!notification.read) markRead.mutate(notification.id);
  };

  return (
    // Not modal: the page stays in the accessibility tree (its focusable parts are not hidden behind
    // aria-hidden), and the list closes on Escape, a click outside or leaving it.
    <DropdownMenu.Root open={open} onOpenChange={onOpenChange} modal={false}>
      <DropdownMenu.Trigger
        ref={triggerRef}
        aria-label={bellLabel(unread)}
        className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
      >
        <Bell className="h-5 w-5" aria-hidden="true" />
        <CountBadge count={unread} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={contentRef}
          align="end"
          sideOffset={8}
          collisionPadding={8}
          // Escape closes the list whatever Radix's layer stack thinks: its handler answers only while
          // it counts this menu the topmost layer, which it does not until the menu has rendered
          // once more after being (re)mounted, and a loaded machine let an Escape through in that
          // gap (CI rehearsal, live.spec.ts). Radix marks an Escape it handled (defaultPrevented).
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !event.defaultPrevented) {
              event.preventDefault();
              onOpenChange(false);
            }
          }}
          className="z-50 flex max-h-[min(32rem,var(--radix-dropdown-menu-content-available-height))] w-[min(24rem,calc(100vw-1rem))] flex-col overflow-y-auto rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
        >
          <div className="flex items-center justify-between gap-2 px-3 py-2">
            <DropdownMenu.Label className="text-sm font-semibold text-slate-900">
              <Trans>Notifications</Trans>
            </DropdownMenu.Label>
            <DropdownMenu.Item
              disabled={!anyUnread || markAll.isPending}
              onSelect={(event) => {
                event.preventDefault();
                keptUnread.current.clear();
                releasedUpTo.current = Math.max(0, ...loaded.map((row) => row.id));
                markAll.mutate();
              }}
              className="cursor-pointer rounded-md px-2 py-1 text-sm font-medium text-brand-700 outline-none data-[disabled]:cursor-default data-[disabled]:text-slate-500 data-[highlighted]:bg-slate-100"
            >
              <Trans>Mark all as read</Trans>
            </DropdownMenu.Item>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          {query.isLoading ? (
            <p className="px-3 py-4 text-sm text-slate-600">
              <Trans>Loading...</Trans>
            </p>
          ) : query.isError && rows.length === 0 ? (
            <p className="px-3 py-4 text-sm text-red-700">
              <Trans>Could not load your notifications.</Trans>
            </p>
          ) : rows.length === 0 ? (
            <p className="px-3 py-6 text-center text-sm text-slate-600">
              <Trans>No notifications yet</Trans>
            </p>
          ) : (
            rows.map((notification) => {
              // A swap day's entry opens the day (issue 30), but a message opens its conversation, a
              // reminder its plan and a want question its Yes and No (the hand-over's page, ADR 078); a
              // barter's entry opens the barter, a trade circle's the circle, a listing alert the item.
              // A stale listing's question (ADR 088) is answered in My Items.
              const href = notification.item
                ? paths.profileTab('items')
                : notification.listing
                  ? paths.item(notification.listing.itemId)
                  : notification.swapDay !== null && !OPENS_THE_BARTER.has(notification.kind)
                    ? paths.swapDay(notification.swapDay.id)
                    : notification.barterRequestId !== null
                      ? paths.barter(notification.barterRequestId)
                      : notification.circleId !== null
                        ? paths.circle(notification.circleId)
                        : null;
              return href === null ? (
                <DropdownMenu.Item
                  key={notification.id}
                  className={itemClass}
                  aria-label={entryLabel(notification)}
                  onSelect={() => markOnSelect(notification)}
                >
                  <NotificationContent notification={notification} />
                </DropdownMenu.Item>
              ) : (
                <DropdownMenu.Item key={notification.id} asChild onSelect={() => markOnSelect(notification)}>
                  <Link href={href} className={itemClass} aria-label={entryLabel(notification)}>
                    <NotificationContent notification={notification} />
                  </Link>
                </DropdownMenu.Item>
              );
            })
          )}
          {query.hasNextPage ? (
            <DropdownMenu.Item
              disabled={query.isFetchingNextPage}
              onSelect={(event) => {
                event.preventDefault();
                void query.fetchNextPage();
              }}
              className="cursor-pointer rounded-md px-3 py-2 text-center text-sm font-medium text-brand-700 outline-none data-[highlighted]:bg-slate-100"
            >
              {query.isFetchingNextPage ? <Trans>Loading...</Trans> : <Trans>Load more</Trans>}
            </DropdownMenu.Item>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
