import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { CalendarDays, LogOut, MapPin, MessageCircle, ShieldCheck, UserRound } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { paths } from '../../app/paths';
import { useLogout } from '../../features/auth/api/auth-mutations';
import { useUser } from '../../features/auth/api/get-user';
import { SearchBox } from '../../features/feed/components/search-box';
import { useUnreadCounts } from '../../features/notifications/api/unread-counts';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { DemoAccountNote } from '../demo-account-note';
import { Avatar } from '../ui/avatar';
import { CountBadge, unreadLabel } from '../ui/count-badge';
import { Logo } from './logo';

/** The signed-in header (spec section 2); renders nothing without a user. */
export function MemberHeader() {
  const { user } = useUser();
  const unread = useUnreadCounts();
  const logout = useLogout();
  const [location, navigate] = useLocation();
  if (!user) return null;
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || 'Member';

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2">
        <Logo />
        <SearchBox id="header-search" className="mx-2 hidden flex-1 md:block" />
        <div className="ml-auto flex items-center gap-1">
          <Link
            href={paths.profile}
            className="hidden max-w-48 items-center gap-1 truncate rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 sm:flex"
          >
            <MapPin className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
            <span className="truncate">{user.location || 'Set location'}</span>
          </Link>
          {/* Swap days (issue 16): an icon on phones, with its name from md up. */}
          <Link
            href={paths.swapDays}
            aria-label="Swap days"
            aria-current={
              location === paths.swapDays || location.startsWith(`${paths.swapDays}/`) ? 'page' : undefined
            }
            className="flex items-center gap-1 rounded-full p-2 text-slate-700 hover:bg-slate-100 aria-[current=page]:text-brand-800 md:rounded-md md:px-2 md:py-1.5 md:text-sm"
          >
            <CalendarDays className="h-5 w-5 md:h-4 md:w-4" aria-hidden="true" />
            <span className="hidden md:inline">Swap days</span>
          </Link>
          <NotificationBell unread={unread.notifications} />
          {/* Phones reach the barters from the bottom navigation's Messages tab. */}
          <Link
            href={paths.barters}
            className="relative hidden rounded-full p-2 text-slate-700 hover:bg-slate-100 sm:block"
            aria-label={unreadLabel('Messages', unread.messages)}
          >
            <MessageCircle className="h-5 w-5" aria-hidden="true" />
            <CountBadge count={unread.messages} />
          </Link>
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="rounded-full" aria-label="Account menu">
              <Avatar firstName={user.firstName} lastName={user.lastName} imageUrl={user.profileImageUrl} />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="end"
                sideOffset={8}
                className="z-50 min-w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
              >
                <div className="px-3 py-2">
                  <p className="text-sm font-semibold text-slate-900">{fullName}</p>
                  {user.email ? (
                    <p className="text-xs text-slate-600">{user.email}</p>
                  ) : user.isDemo ? (
                    <DemoAccountNote />
                  ) : null}
                </div>
                <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
                <DropdownMenu.Item
                  onSelect={() => navigate(paths.profile)}
                  className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
                >
                  <UserRound className="h-4 w-4" aria-hidden="true" />
                  Profile
                </DropdownMenu.Item>
                {user.role === 'moderator' && (
                  <DropdownMenu.Item
                    onSelect={() => navigate(paths.moderation)}
                    className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
                  >
                    <ShieldCheck className="h-4 w-4" aria-hidden="true" />
                    Moderation
                  </DropdownMenu.Item>
                )}
                <DropdownMenu.Item
                  onSelect={() => logout.mutate()}
                  className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
                >
                  <LogOut className="h-4 w-4" aria-hidden="true" />
                  Log out
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      </div>
    </header>
  );
}
