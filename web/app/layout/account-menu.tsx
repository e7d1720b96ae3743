import { Trans, useLingui } from '@lingui/react/macro';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { ListChecks, LogOut, ShieldCheck, UserRound } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { DemoAccountNote } from '../../components/demo-account-note';
import { Avatar } from '../../components/ui/avatar';
import { type MenuArrival, useMenuArrival } from '../../components/ui/deferred-menu';
import { useLogout } from '../../lib/auth-mutations';
import { useUser } from '../../lib/get-user';
import { allStepsDone, useGettingStarted, useSetGettingStartedCompleted } from '../../lib/getting-started';
import { paths } from '../../lib/paths';

/**
 * The header's account menu (spec section 2): name, address, Profile, Getting Started when put away,
 * Moderation for moderators, Log out. Loaded once the page has settled or at the first click on its
 * stand-in (member-header.tsx, ADR 113); it arrives open when the member opened the stand-in first.
 */
export function AccountMenu({ arrival }: { arrival?: MenuArrival }) {
  const { t } = useLingui();
  const { user } = useUser();
  const logout = useLogout();
  const [, navigate] = useLocation();
  const { defaultOpen, triggerRef, contentRef } = useMenuArrival(arrival);
  const [open, setOpen] = useState(defaultOpen);
  // Read when the menu opens (ADR 113): the menu mounts once the page has settled, and a read made
  // then could meet a sign-out the member had started meanwhile (a 401 for a page going away).
  const gettingStarted = useGettingStarted({ enabled: Boolean(user) && open });
  const resumeGuide = useSetGettingStartedCompleted();
  if (!user) return null;
  // The guided start, skipped with steps left: the menu brings it back (issue 17).
  const guidePutAway = gettingStarted.data?.completed === true && !allStepsDone(gettingStarted.data);
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || t`Member`;
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen}>
      <DropdownMenu.Trigger ref={triggerRef} className="rounded-full" aria-label={t`Account menu`}>
        <Avatar firstName={user.firstName} lastName={user.lastName} imageUrl={user.profileImageUrl} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={contentRef}
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
            <Trans>Profile</Trans>
          </DropdownMenu.Item>
          {guidePutAway ? (
            <DropdownMenu.Item
              onSelect={() => resumeGuide.mutate(false, { onSuccess: () => navigate(paths.home) })}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
            >
              <ListChecks className="h-4 w-4" aria-hidden="true" />
              <Trans>Getting Started</Trans>
            </DropdownMenu.Item>
          ) : null}
          {user.role === 'moderator' && (
            <DropdownMenu.Item
              onSelect={() => navigate(paths.moderation)}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
            >
              <ShieldCheck className="h-4 w-4" aria-hidden="true" />
              <Trans>Moderation</Trans>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item
            onSelect={() => logout.mutate()}
            className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
          >
            <LogOut className="h-4 w-4" aria-hidden="true" />
            <Trans>Log out</Trans>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
