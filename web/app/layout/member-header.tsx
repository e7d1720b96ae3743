import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarDays, MapPin, MessageCircle } from 'lucide-react';
import { lazy } from 'react';
import { Link, useLocation } from 'wouter';
import { Logo } from '../../components/layout/logo';
import { Avatar } from '../../components/ui/avatar';
import { CountBadge, unreadLabel } from '../../components/ui/count-badge';
import { DeferredMenu } from '../../components/ui/deferred-menu';
import { SearchBox } from '../../features/feed/components/search-box';
import { NotificationBell } from '../../features/notifications/components/lazy-notification-bell';
import { withMessages } from '../../i18n/i18n';
import { formatPlaceName } from '../../i18n/place-names';
import { useUser } from '../../lib/get-user';
import { paths } from '../../lib/paths';
import { useUnreadCounts } from '../../lib/unread-counts';

// The menus' code (Radix's menu and its positioning, about 70 KB) loads once the page has settled, or
// at the member's first use of the menu (ADR 113; before, beside the first screen, ADR 033). Until
// then a button that looks the same stands in (DeferredMenu), and opening it opens the menu on arrival.
const AccountMenu = lazy(() =>
  withMessages(() => import('./account-menu'), { background: true }).then((module) => ({
    default: module.AccountMenu,
  })),
);

/** The signed-in header (spec section 2); renders nothing without a user. */
export function MemberHeader() {
  const { t } = useLingui();
  const { user } = useUser();
  const unread = useUnreadCounts();
  const [location] = useLocation();
  if (!user) return null;

  return (
    // Opaque, without a backdrop blur: the blur behind a sticky header doubled the frames Chromium
    // composited while a page started (ADR 107).
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2">
        <Logo />
        <SearchBox id="header-search" className="mx-2 hidden flex-1 md:block" />
        <div className="ml-auto flex items-center gap-1">
          <Link
            href={paths.profile}
            className="hidden max-w-48 items-center gap-1 truncate rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 sm:flex"
          >
            <MapPin className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
            <span className="truncate">{formatPlaceName(user.location ?? '') || t`Set location`}</span>
          </Link>
          {/* Swap days (issue 16): an icon on phones, with its name from md up. */}
          <Link
            href={paths.swapDays}
            aria-label={t`Swap days`}
            aria-current={
              location === paths.swapDays || location.startsWith(`${paths.swapDays}/`) ? 'page' : undefined
            }
            className="flex items-center gap-1 rounded-full p-2 text-slate-700 hover:bg-slate-100 aria-[current=page]:text-brand-800 md:rounded-md md:px-2 md:py-1.5 md:text-sm"
          >
            <CalendarDays className="h-5 w-5 md:h-4 md:w-4" aria-hidden="true" />
            <span className="hidden md:inline">
              <Trans>Swap days</Trans>
            </span>
          </Link>
          <NotificationBell unread={unread.notifications} />
          {/* Messages in the header on every screen (the bottom navigation has it on phones too): the inbox. */}
          <Link
            href={paths.messages}
            aria-current={location === paths.messages ? 'page' : undefined}
            className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100 aria-[current=page]:text-brand-800"
            aria-label={unreadLabel(t`Messages`, unread.messages)}
          >
            <MessageCircle className="h-5 w-5" aria-hidden="true" />
            <CountBadge count={unread.messages} />
          </Link>
          <DeferredMenu
            standIn={(props) => (
              <button type="button" className="rounded-full" aria-label={t`Account menu`} {...props}>
                <Avatar firstName={user.firstName} lastName={user.lastName} imageUrl={user.profileImageUrl} />
              </button>
            )}
            menu={(arrival) => <AccountMenu arrival={arrival} />}
          />
        </div>
      </div>
    </header>
  );
}
