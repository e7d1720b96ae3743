import { lazy } from 'react';
import type { FeatureSlots } from '../components/feature-slots';
import { ProposeBarterButton } from '../features/barters/components/propose-barter-button';
import { ItemFormDialog, WantFormDialog } from '../features/listings/components/lazy-form-dialogs';
import { withMessages } from '../i18n/i18n';

// A barter's conversation loads where it is shown (a trade circle's page), not with every screen.
const BarterConversation = lazy(() =>
  withMessages(() => import('../features/barters/components/barter-conversation')).then((module) => ({
    default: module.BarterConversation,
  })),
);

// A circle's hand-over (its plan and codes) loads on the circle's page too (ADR 081).
const CircleHandOver = lazy(() =>
  withMessages(() => import('../features/barters/components/circle-hand-over')).then((module) => ({
    default: module.CircleHandOver,
  })),
);

/** What each feature lends the others' screens (web/components/feature-slots.tsx, ADR 068). */
export const featureSlots: FeatureSlots = {
  ItemFormDialog,
  WantFormDialog,
  ProposeBarterButton,
  BarterConversation,
  CircleHandOver,
};
