import {
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type RefCallback,
  type RefObject,
  Suspense,
  startTransition,
  useCallback,
  useRef,
  useState,
} from 'react';
import { useSettled } from '#web/lib/settled.ts';

/** How the member opened a menu's stand-in before the menu's code arrived: from the keyboard or by pointer. */
export type OpenedWith = 'keyboard' | 'pointer';

/** What the loaded menu is told about the stand-in it replaces. */
export interface MenuArrival {
  /** Set when the member opened the stand-in: the menu arrives open. */
  openedWith: OpenedWith | null;
  /** Whether the stand-in held the focus when the menu replaced it (read as the two swap). */
  standInHadFocus: RefObject<boolean>;
}

/** The props a stand-in button spreads: a menu button that asks for its menu when used. */
export interface StandInProps {
  ref: RefCallback<HTMLButtonElement>;
  'aria-haspopup': 'menu';
  'aria-expanded': false;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
  onPointerDown: (event: PointerEvent<HTMLButtonElement>) => void;
}

/**
 * A header menu whose code loads once the page has settled, or at the member's first use of the button
 * standing in for it (ADR 113). The stand-in looks and reads the same; the swap is one commit (a
 * transition keeps the stand-in until the code is there), and the loaded menu is told how it was
 * asked for so a keyboard keeps its place (useMenuArrival).
 */
export function DeferredMenu({
  standIn,
  menu,
}: {
  /** The stand-in button, with `props` spread on it. */
  standIn: (props: StandInProps) => ReactElement;
  /** The lazily loaded menu, handed what it needs to arrive where the stand-in was. */
  menu: (arrival: MenuArrival) => ReactElement;
}) {
  const settled = useSettled();
  const [openedWith, setOpenedWith] = useState<OpenedWith | null>(null);
  const standInHadFocus = useRef(false);
  // Read as the stand-in leaves the page: React detaches a removed element's ref before removing it.
  const ref = useCallback<RefCallback<HTMLButtonElement>>((node) => {
    if (!node) return;
    return () => {
      standInHadFocus.current = document.activeElement === node;
    };
  }, []);
  const ask = (how: OpenedWith) => startTransition(() => setOpenedWith((was) => was ?? how));
  const button = standIn({
    ref,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    // A click the keyboard made (Enter or Space on a button) has no pointer behind it: detail 0.
    onClick: (event) => ask(event.detail === 0 ? 'keyboard' : 'pointer'),
    // As the loaded menu's trigger (Radix's) opens: on the primary button's press. If the menu
    // replaces the stand-in before the button comes up, the click lands on neither, and the press
    // has asked already.
    onPointerDown: (event) => {
      if (event.button === 0 && !event.ctrlKey) ask('pointer');
    },
    // A menu button opens on the down arrow too (WAI-ARIA's menu button), as Radix's trigger does.
    onKeyDown: (event) => {
      if (event.key !== 'ArrowDown') return;
      event.preventDefault();
      ask('keyboard');
    },
  });
  // Keyed by whether the stand-in was used: a use that came while the settled page's menu was on its
  // way (the transition keeps the stand-in on screen meanwhile) is seen after the menu has mounted
  // closed, and the menu then mounts anew, open. Each loaded menu reads `openedWith` once, at mount.
  return (
    <Suspense fallback={button}>
      {settled || openedWith !== null ? (
        <Fragment key={openedWith === null ? 'unused' : 'used'}>
          {menu({ openedWith, standInHadFocus })}
        </Fragment>
      ) : (
        button
      )}
    </Suspense>
  );
}

/**
 * The loaded menu's side of DeferredMenu: whether it starts open, and refs for its trigger and content
 * that put the focus where the member had it: on the trigger when the stand-in had it, on the first
 * item that can take it when the keyboard opened the stand-in (Radix focuses the first item only for a
 * keyboard it saw, and it arrived after the key).
 */
export function useMenuArrival(arrival: MenuArrival | undefined): {
  defaultOpen: boolean;
  triggerRef: RefCallback<HTMLButtonElement>;
  contentRef: RefCallback<HTMLDivElement>;
} {
  const openedWith = arrival?.openedWith ?? null;
  const hadFocus = arrival?.standInHadFocus;
  const arrived = useRef(false);
  const triggerRef = useCallback<RefCallback<HTMLButtonElement>>(
    (node) => {
      if (!node || arrived.current) return;
      arrived.current = true;
      if (openedWith === null && hadFocus?.current) node.focus({ preventScroll: true });
    },
    [openedWith, hadFocus],
  );
  const itemFocused = useRef(false);
  const contentRef = useCallback<RefCallback<HTMLDivElement>>(
    (node) => {
      if (!node || itemFocused.current || openedWith !== 'keyboard') return;
      itemFocused.current = true;
      // Radix's menu then finds the focus inside and leaves it there (its focus scope, on mount).
      node
        .querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')
        ?.focus({ preventScroll: true });
    },
    [openedWith],
  );
  return { defaultOpen: openedWith !== null, triggerRef, contentRef };
}
