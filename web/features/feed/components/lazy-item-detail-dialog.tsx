import { withMessages } from '#web/i18n/i18n.ts';
import { lazyDialog } from '#web/lib/lazy-dialog.tsx';
import type { ItemDetailDialog as EagerItemDetailDialog } from './item-detail-dialog';

/** The item detail dialog (item-detail-dialog.tsx), loaded when the first item is opened (ADR 033). */
export const ItemDetailDialog = lazyDialog<Parameters<typeof EagerItemDetailDialog>[0]>(
  () => withMessages(() => import('./item-detail-dialog')).then((module) => module.ItemDetailDialog),
  (props) => props.itemId !== null,
);
