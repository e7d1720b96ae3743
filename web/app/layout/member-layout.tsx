import { Trans } from '@lingui/react/macro';
import { Plus } from 'lucide-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { useRoute } from 'wouter';
import { AddItemProvider, useOpenAddItem } from '../../components/feature-slots';
import { SiteFooter } from '../../components/layout/site-footer';
import { MAIN_CONTENT_ID } from '../../components/layout/skip-link';
import { Button } from '../../components/ui/button';
import { VerifyEmailBanner } from '../../features/account/components/verify-email-banner';
import { withMessages } from '../../i18n/i18n';
import { paths } from '../../lib/paths';
import { BottomNav } from './bottom-nav';
import { MemberHeader } from './member-header';

// Without the stream the page works (it is read again on open); if its code cannot load, none.
const MemberLiveEvents = lazy(() =>
  withMessages(() => import('./member-live-events')).catch(() => ({ default: () => null })),
);

/**
 * The floating Add Item button on desktop (spec section 2). Not on a barter's page: its corner is
 * where the conversation's Send button comes to rest (issue 28).
 */
function FloatingAddItem() {
  const openAddItem = useOpenAddItem();
  const [onBarter] = useRoute(paths.barterPattern);
  if (onBarter) return null;
  return (
    <Button
      size="lg"
      onClick={openAddItem}
      className="fixed right-6 bottom-6 z-30 hidden rounded-full shadow-lg md:inline-flex print:hidden"
    >
      <Plus className="h-5 w-5" aria-hidden="true" />
      <Trans>Add Item</Trans>
    </Button>
  );
}

/**
 * The frame of member screens: header on top, bottom navigation on phones, the Add New Item dialog,
 * and the live updates of the header's badges and the barter screens.
 */
export function MemberLayout({ children }: { children: ReactNode }) {
  return (
    <AddItemProvider>
      <Suspense fallback={null}>
        <MemberLiveEvents />
      </Suspense>
      <div className="min-h-screen pb-16 md:pb-0 print:pb-0">
        {/* Printed pages (the swap day's pick-up sheet) carry only their content. */}
        <div className="contents print:hidden">
          <MemberHeader />
          <VerifyEmailBanner />
        </div>
        {/* At least a screen high: the footer starts below the fold and never jumps as the page's data arrives. */}
        <main
          id={MAIN_CONTENT_ID}
          className="mx-auto min-h-screen max-w-6xl px-4 py-6 print:min-h-0 print:max-w-none print:p-0"
        >
          {children}
        </main>
        <div className="print:hidden">
          <SiteFooter />
        </div>
        <FloatingAddItem />
        <div className="print:hidden">
          <BottomNav />
        </div>
      </div>
    </AddItemProvider>
  );
}
