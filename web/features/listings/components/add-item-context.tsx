import { createContext, type ReactNode, useContext, useState } from 'react';
import { ItemFormDialog } from './item-form-dialog';

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
