import { type ComponentType, createContext, type ReactNode, Suspense, useContext, useState } from 'react';
import type { FeedItem } from '#common/schemas/feed.ts';

/**
 * What one feature shows on another's screen (ADR 068): the Add New Item and want dialogs (listings)
 * that the feed, the guided start and the proposal dialog open, and the Propose Barter button
 * (barters) on the feed's cards, a barter's conversation (barters) on a trade circle's page. A feature asks for them here; web/app/feature-slots.ts fills them
 * in, so no feature imports another.
 */
export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export interface ProposeBarterButtonProps {
  item: Pick<FeedItem, 'id' | 'title' | 'category' | 'isService' | 'thumbnailUrl' | 'user'>;
  /** The viewer's item the owner wants ("They want your bike"): ticked on opening (issue 28). */
  offerItemId?: number;
  className?: string;
}

export interface BarterConversationProps {
  barterId: number;
  /** Member id to name, when more than two read it (a trade circle): who wrote each message. */
  names?: ReadonlyMap<string, string>;
}

export interface CircleHandOverProps {
  /** The barter of one of the viewer's hand-overs in a trade circle. */
  barterId: number;
}

export interface FeatureSlots {
  ItemFormDialog: ComponentType<DialogProps>;
  WantFormDialog: ComponentType<DialogProps>;
  ProposeBarterButton: ComponentType<ProposeBarterButtonProps>;
  BarterConversation: ComponentType<BarterConversationProps>;
  CircleHandOver: ComponentType<CircleHandOverProps>;
}

const SlotsContext = createContext<FeatureSlots | null>(null);

export function FeatureSlotsProvider({ slots, children }: { slots: FeatureSlots; children: ReactNode }) {
  return <SlotsContext.Provider value={slots}>{children}</SlotsContext.Provider>;
}

function useSlots(): FeatureSlots {
  const slots = useContext(SlotsContext);
  if (!slots)
    throw new Error('A feature slot was rendered outside FeatureSlotsProvider (web/app/provider.tsx).');
  return slots;
}

/** The Add/Edit Want dialog (web/features/listings), loaded when it first opens (ADR 033). */
export function WantFormDialog(props: DialogProps) {
  const { WantFormDialog: Dialog } = useSlots();
  return <Dialog {...props} />;
}

/** Propose Barter on a card or an item's detail (web/features/barters). */
export function ProposeBarterButton(props: ProposeBarterButtonProps) {
  const { ProposeBarterButton: Button } = useSlots();
  return <Button {...props} />;
}

/** A barter's conversation, read by its id (web/features/barters): a trade circle's page shows it. */
export function BarterConversation(props: BarterConversationProps) {
  const { BarterConversation: Conversation } = useSlots();
  // The app's slot loads the conversation's chunk on first use; nothing shows until it has.
  return (
    <Suspense fallback={null}>
      <Conversation {...props} />
    </Suspense>
  );
}

/**
 * One hand-over of a trade circle, its plan and its codes (web/features/barters), on the circle's page
 * (issue 30, ADR 081).
 */
export function CircleHandOver(props: CircleHandOverProps) {
  const { CircleHandOver: HandOver } = useSlots();
  return (
    <Suspense fallback={null}>
      <HandOver {...props} />
    </Suspense>
  );
}

const AddItemContext = createContext<() => void>(() => {});

/** Holds the one Add New Item dialog that the floating button, the bottom navigation and empty states open. */
export function AddItemProvider({ children }: { children: ReactNode }) {
  const { ItemFormDialog } = useSlots();
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
