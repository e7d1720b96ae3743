import { withMessages } from '../../../i18n/i18n';
import { lazyDialog } from '../../../lib/lazy-dialog';
import type { WantFormDialog as EagerWantFormDialog } from './want-form-dialog';

/** The Add/Edit Want dialog (want-form-dialog.tsx), loaded when it first opens (ADR 033). */
export const WantFormDialog = lazyDialog<Parameters<typeof EagerWantFormDialog>[0]>(() =>
  withMessages(() => import('./want-form-dialog')).then((module) => module.WantFormDialog),
);
