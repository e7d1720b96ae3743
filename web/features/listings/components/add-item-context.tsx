import { createContext, type ReactNode, useContext, useState } from 'react';
import { withMessages } from '../../../i18n/i18n';
import { lazyDialog } from '../../../lib/lazy-dialog';
import type { ItemFormDialog as EagerItemFormDialog } from './item-form-dialog';

// The form (react-hook-form, the listing schemas, photo and camera) loads on the first opening, not
// with every member screen (ADR 033).
const ItemFormDialog = lazyDialog<Parameters<typeof EagerItemFormDialog>[0]>(() =>
  withMessages(() => import('./item-form-dialog')).then((module) => module.ItemFormDialog),
);

const AddItemContext = createContext<() => void>(() => {});

/** Holds the one Add New Item dialog that the floating button, the bottom navigation and empty states open. */
export function AddItemProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <AddItemContext.Provider value={() => setOpen(true)}>
      {children}
      <ItemFormDialog open={open} onOpenChange={setOpen} />
    </AddItemContext.Provider>
  );
}

/** Open the Add New Item dialog. */
export function useOpenAddItem(): () => void {
  return useContext(AddItemContext);
}
