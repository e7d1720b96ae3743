import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { AddItemProvider, useOpenAddItem } from '../../features/listings/components/add-item-context';
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
      className="fixed right-6 bottom-6 z-30 hidden rounded-full shadow-lg md:inline-flex"
    >
      <Plus className="h-5 w-5" aria-hidden="true" />
      Add Item
    </Button>
  );
}

/** The frame of member screens: header on top, bottom navigation on phones, the Add New Item dialog. */
export function MemberLayout({ children }: { children: ReactNode }) {
  return (
    <AddItemProvider>
      <div className="min-h-screen pb-16 md:pb-0">
        <MemberHeader />
        <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
        <FloatingAddItem />
        <BottomNav />
      </div>
    </AddItemProvider>
  );
}
