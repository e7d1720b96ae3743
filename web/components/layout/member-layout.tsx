import type { ReactNode } from 'react';
import { BottomNav } from './bottom-nav';
import { MemberHeader } from './member-header';

/** The frame of member screens: header on top, bottom navigation on phones. */
export function MemberLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen pb-16 md:pb-0">
      <MemberHeader />
      <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
      <BottomNav />
    </div>
  );
}
