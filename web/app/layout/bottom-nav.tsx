import { Trans, useLingui } from '@lingui/react/macro';
import { Home, MessageCircle, PlusCircle, Search, UserRound } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { useOpenAddItem } from '../../components/feature-slots';
import { CountBadge, unreadLabel } from '../../components/ui/count-badge';
import { paths } from '../../lib/paths';
import { useUnreadCounts } from '../../lib/unread-counts';
import { cn } from '../../lib/utils';

const itemClass = 'flex flex-1 flex-col items-center gap-0.5 py-2 text-xs';

/** Where the bar's message count sits on its icon (the drawn pages always carry it, ADR 113). */
export const BOTTOM_NAV_BADGE_CLASSES = '-top-2 -right-3';

/**
 * The mobile bottom navigation (spec section 2): Home, Search, Add, Messages, Profile, with the
 * active highlight on /, the conversations (the inbox, /barters and a barter's page) and /profile.
 * Search opens the home feed's search box, Add the Add New Item dialog, Messages the inbox of
 * conversations (unread badge; ADR 076).
 */
export function BottomNav() {
  const { t } = useLingui();
  const [location, navigate] = useLocation();
  const openAddItem = useOpenAddItem();
  const unread = useUnreadCounts();
  // Search lives on the home feed on phones: go there and put the cursor in its search box.
  const openSearch = () => {
    navigate(paths.home);
    let tries = 0;
    const focus = () => {
      const field = document.getElementById('mobile-search');
      if (field) field.focus();
      else if (tries++ < 20) window.setTimeout(focus, 50);
    };
    focus();
  };
  const active = (path: string) => (location === path ? 'text-brand-700 font-semibold' : 'text-slate-600');
  const onBarters =
    location === paths.messages || location === paths.barters || location.startsWith(`${paths.barters}/`);
  return (
    <nav
      aria-label={t`Main`}
      className="fixed inset-x-0 bottom-0 z-40 flex border-t border-slate-200 bg-white md:hidden"
    >
      <Link
        href={paths.home}
        className={cn(itemClass, active(paths.home))}
        aria-current={location === paths.home ? 'page' : undefined}
      >
        <Home className="h-5 w-5" aria-hidden="true" />
        <Trans>Home</Trans>
      </Link>
      <button type="button" onClick={openSearch} className={cn(itemClass, 'text-slate-600')}>
        <Search className="h-5 w-5" aria-hidden="true" />
        <Trans>Search</Trans>
      </button>
      <button type="button" onClick={openAddItem} className={cn(itemClass, 'text-slate-600')}>
        <PlusCircle className="h-5 w-5" aria-hidden="true" />
        <Trans>Add</Trans>
      </button>
      <Link
        href={paths.messages}
        className={cn(itemClass, onBarters ? 'text-brand-700 font-semibold' : 'text-slate-600')}
        aria-current={onBarters ? 'page' : undefined}
        aria-label={unreadLabel(t`Messages`, unread.messages)}
      >
        <span className="relative">
          <MessageCircle className="h-5 w-5" aria-hidden="true" />
          <CountBadge count={unread.messages} className={BOTTOM_NAV_BADGE_CLASSES} />
        </span>
        <Trans>Messages</Trans>
      </Link>
      <Link
        href={paths.profile}
        className={cn(itemClass, active(paths.profile))}
        aria-current={location === paths.profile ? 'page' : undefined}
      >
        <UserRound className="h-5 w-5" aria-hidden="true" />
        <Trans>Profile</Trans>
      </Link>
    </nav>
  );
}
