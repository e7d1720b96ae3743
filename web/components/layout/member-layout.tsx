import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { VerifyEmailBanner } from '../../features/account/components/verify-email-banner';
import { userQuery, useUser } from '../../features/auth/api/get-user';
import { AddItemProvider, useOpenAddItem } from '../../features/listings/components/add-item-context';
import { useLiveEvents } from '../../features/notifications/live-events';
import { Button } from '../ui/button';
import { BottomNav } from './bottom-nav';
import { MemberHeader } from './member-header';

/** The floating Add Item button on desktop (spec section 2). */
function FloatingAddItem() {
  const openAddItem = useOpenAddItem();
  return (
    <Button
      size="lg"
      onClick={openAddItem}
      className="fixed right-6 bottom-6 z-30 hidden rounded-full shadow-lg md:inline-flex print:hidden"
    >
      <Plus className="h-5 w-5" aria-hidden="true" />
      Add Item
    </Button>
  );
}

/**
 * The page's live updates (issue 13) while signed in. When the stream is refused, the current user is
 * read again: signed out elsewhere, the app turns to its signed-out screens and the stream stays shut.
 */
function useMemberLiveEvents() {
  const { isAuthenticated } = useUser();
  const queryClient = useQueryClient();
  useLiveEvents(isAuthenticated, () =>
    queryClient.fetchQuery({ ...userQuery(), staleTime: 0 }).then(
      (user) => user !== null,
      () => true,
    ),
  );
}

/**
 * The frame of member screens: header on top, bottom navigation on phones, the Add New Item dialog,
 * and the live updates of the header's badges and the barter screens.
 */
export function MemberLayout({ children }: { children: ReactNode }) {
  useMemberLiveEvents();
  return (
    <AddItemProvider>
      <div className="min-h-screen pb-16 md:pb-0 print:pb-0">
        {/* Printed pages (the swap day's pick-up sheet) carry only their content. */}
        <div className="contents print:hidden">
          <MemberHeader />
          <VerifyEmailBanner />
        </div>
        <main className="mx-auto max-w-6xl px-4 py-6 print:max-w-none print:p-0">{children}</main>
        <FloatingAddItem />
        <div className="print:hidden">
          <BottomNav />
        </div>
      </div>
    </AddItemProvider>
  );
}
