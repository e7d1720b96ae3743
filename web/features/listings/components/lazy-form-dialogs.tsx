import { withMessages } from '#web/i18n/i18n.ts';
import { lazyDialog } from '#web/lib/lazy-dialog.tsx';
import type { ItemFormDialog as EagerItemFormDialog } from './item-form-dialog';
import type { WantFormDialog as EagerWantFormDialog } from './want-form-dialog';

// The forms (react-hook-form, the listing schemas, photo and camera) load on the first opening, not
// with every member screen (ADR 033).

/** The Add New Item / Edit Item dialog (item-form-dialog.tsx). */
export const ItemFormDialog = lazyDialog<Parameters<typeof EagerItemFormDialog>[0]>(() =>
  withMessages(() => import('./item-form-dialog')).then((module) => module.ItemFormDialog),
);

/** The Add/Edit Want dialog (want-form-dialog.tsx). */
export const WantFormDialog = lazyDialog<Parameters<typeof EagerWantFormDialog>[0]>(() =>
  withMessages(() => import('./want-form-dialog')).then((module) => module.WantFormDialog),
);
