import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, type ReactNode, Suspense } from 'react';
import { useLocation, useSearch } from 'wouter';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { BioCard } from '../../features/profile/components/bio-card';
import { PhotoCard } from '../../features/profile/components/photo-card';
import { ProfileFormTab } from '../../features/profile/components/profile-form-tab';
import { ProfileHeader } from '../../features/profile/components/profile-header';
import { BlockedMembers } from '../../features/safety/components/blocked-members';
import { withMessages } from '../../i18n/i18n';
import { useUser } from '../../lib/get-user';
import { type ProfileTab, paths, profileTabs } from '../../lib/paths';
import { MemberLayout } from '../layout/member-layout';

// The first tab is drawn with the page; the others load when opened (their lists, forms and menus
// are not evaluated for a visit that never opens them).
const MyItemsTab = lazy(() =>
  withMessages(() => import('../../features/listings/components/my-items-tab')).then((m) => ({
    default: m.MyItemsTab,
  })),
);
const WantListTab = lazy(() =>
  withMessages(() => import('../../features/listings/components/want-list-tab')).then((m) => ({
    default: m.WantListTab,
  })),
);
const TradeHistoryTab = lazy(() =>
  withMessages(() => import('../../features/profile/components/trade-history-tab')).then((m) => ({
    default: m.TradeHistoryTab,
  })),
);
const SavedTab = lazy(() =>
  withMessages(() => import('../../features/feed/components/saved-tab')).then((m) => ({
    default: m.SavedTab,
  })),
);
const AccountTab = lazy(() =>
  withMessages(() => import('../../features/account/components/account-tab')).then((m) => ({
    default: m.AccountTab,
  })),
);

/** A tab's content while its code loads. */
function TabLoading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="text-slate-600">
          <Trans>Loading...</Trans>
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

const TAB_LABELS: Record<ProfileTab, MessageDescriptor> = {
  profile: msg`Profile`,
  items: msg`My Items`,
  wants: msg`Want List`,
  trades: msg`Trade History`,
  saved: msg`Saved`,
  account: msg`Account`,
};

/** /profile (spec section 2): header and its tabs (the spec's five and Account); ?tab= selects one, so each tab can be linked to. */
export default function ProfilePage() {
  const { t } = useLingui();
  const { user } = useUser();
  const search = useSearch();
  const [, navigate] = useLocation();
  if (!user) return null;
  const requested = new URLSearchParams(search).get('tab');
  const tab: ProfileTab = profileTabs.includes(requested as ProfileTab)
    ? (requested as ProfileTab)
    : 'profile';
  return (
    <MemberLayout>
      <ProfileHeader user={user} />
      <Tabs
        value={tab}
        onValueChange={(next) => navigate(paths.profileTab(next as ProfileTab), { replace: true })}
        className="mt-6"
      >
        {/* Six tabs: three to a row on phones (all in sight, nothing scrolled off), one row from sm up. */}
        <TabsList aria-label={t`Profile sections`} className="grid grid-cols-3 sm:flex">
          {profileTabs.map((value) => (
            <TabsTrigger
              key={value}
              value={value}
              className="px-1 whitespace-normal sm:px-3 sm:whitespace-nowrap"
            >
              {t(TAB_LABELS[value])}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile">
          <div className="grid gap-6">
            <ProfileFormTab user={user} />
            <PhotoCard user={user} />
            <BioCard userId={user.id} />
          </div>
        </TabsContent>
        <TabsContent value="items">
          <TabLoading>
            <MyItemsTab />
          </TabLoading>
        </TabsContent>
        <TabsContent value="wants">
          <TabLoading>
            <WantListTab />
          </TabLoading>
        </TabsContent>
        <TabsContent value="trades">
          <TabLoading>
            <TradeHistoryTab userId={user.id} />
          </TabLoading>
        </TabsContent>
        <TabsContent value="saved">
          <TabLoading>
            <SavedTab />
          </TabLoading>
        </TabsContent>
        <TabsContent value="account">
          <TabLoading>
            <AccountTab user={user} blockedMembers={<BlockedMembers />} />
          </TabLoading>
        </TabsContent>
      </Tabs>
    </MemberLayout>
  );
}
