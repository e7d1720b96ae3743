import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useLocation, useSearch } from 'wouter';
import { MemberLayout } from '../../components/layout/member-layout';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { AccountTab } from '../../features/account/components/account-tab';
import { useUser } from '../../features/auth/api/get-user';
import { MyItemsTab } from '../../features/listings/components/my-items-tab';
import { WantListTab } from '../../features/listings/components/want-list-tab';
import { BioCard } from '../../features/profile/components/bio-card';
import { PhotoCard } from '../../features/profile/components/photo-card';
import { ProfileFormTab } from '../../features/profile/components/profile-form-tab';
import { ProfileHeader } from '../../features/profile/components/profile-header';
import { TradeHistoryTab } from '../../features/profile/components/trade-history-tab';
import { SavedTab } from '../../features/saved/components/saved-tab';
import { type ProfileTab, paths, profileTabs } from '../paths';

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
          <MyItemsTab />
        </TabsContent>
        <TabsContent value="wants">
          <WantListTab />
        </TabsContent>
        <TabsContent value="trades">
          <TradeHistoryTab userId={user.id} />
        </TabsContent>
        <TabsContent value="saved">
          <SavedTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab user={user} />
        </TabsContent>
      </Tabs>
    </MemberLayout>
  );
}
