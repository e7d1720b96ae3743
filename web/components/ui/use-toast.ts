import { type ReactNode, useEffect, useState } from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '#common/constants.ts';
import { anyDialogOpen, onDialogsChange } from './open-dialogs';

/** One toast (spec section 9: one visible at a time, 5000 ms, removed 1,000,000 ms after dismissal). */
export interface ToastData {
  id: string;
  title?: ReactNode;
  description?: ReactNode;
  variant?: 'default' | 'destructive';
  open: boolean;
}

export type ToastInput = Omit<ToastData, 'id' | 'open'>;

type State = { toasts: ToastData[] };

let memory: State = { toasts: [] };
const listeners = new Set<(state: State) => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function setState(next: State) {
  memory = next;
  for (const listener of listeners) listener(memory);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      setState({ toasts: memory.toasts.filter((t) => t.id !== id) });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Close a toast (or all); it stays mounted for the removal delay so its exit animation can run. */
export function dismissToast(id?: string) {
  for (const t of memory.toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id);
  setState({
    toasts: memory.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)),
  });
}

/** Show a toast; a new one replaces the visible one. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  setState({ toasts: [{ ...input, id, open: true }, ...memory.toasts].slice(0, TOAST_LIMIT) });
  return { id, dismiss: () => dismissToast(id) };
}

/**
 * Show a toast that gives way (issues 17 and 28): the safety tip never replaces a toast on show (the
 * result of the member's own action) nor covers a dialog; it waits until no toast and no dialog is
 * open, then shows for `durationMs`, and a dialog opening closes it. `onShow` is called when it
 * shows. `cancel` (the screen that asked for it went away) drops it if it is still waiting, or
 * closes it.
 */
export function toastWhenQuiet(
  input: ToastInput,
  durationMs: number,
  { onShow }: { onShow?: () => void } = {},
): { cancel: () => void } {
  let shown: ReturnType<typeof toast> | null = null;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const busy = () => memory.toasts.some((t) => t.open) || anyDialogOpen();
  const listener = () => {
    if (cancelled || shown || busy()) return;
    listeners.delete(listener);
    // Not from inside another toast's state change: once it has reached every listener.
    queueMicrotask(() => {
      if (cancelled || shown) return;
      if (busy()) {
        listeners.add(listener);
        return;
      }
      shown = toast(input);
      hideTimer = setTimeout(() => shown?.dismiss(), durationMs);
      onShow?.();
    });
  };
  // A dialog opening or closing: the tip goes if it is on show, or shows if it was waiting for it.
  const stopWatchingDialogs = onDialogsChange(() => {
    if (cancelled) return;
    if (shown) {
      if (anyDialogOpen()) shown.dismiss();
    } else listener();
  });
  listeners.add(listener);
  listener();
  return {
    cancel: () => {
      cancelled = true;
      listeners.delete(listener);
      stopWatchingDialogs();
      clearTimeout(hideTimer);
      shown?.dismiss();
    },
  };
}

/** Close the error toasts on show: a new screen does not carry an old screen's failure (issue 17). */
export function dismissErrorToasts() {
  for (const t of memory.toasts) if (t.open && t.variant === 'destructive') dismissToast(t.id);
}

/** The toasts to render, kept in step with toast() and dismissToast(). */
export function useToasts(): ToastData[] {
  const [state, set] = useState(memory);
  useEffect(() => {
    listeners.add(set);
    set(memory);
    return () => {
      listeners.delete(set);
    };
  }, []);
  return state.toasts;
}

const PENDING_TOAST_KEY = 'barterhood:pending-toast';

/**
 * Show a toast after a full page navigation (sign-in ends with one, spec section 4): kept in
 * session storage and shown by showPendingToast() when the next page starts.
 */
export function toastAfterNavigation(input: { title?: string; description?: string }) {
  try {
    window.sessionStorage.setItem(PENDING_TOAST_KEY, JSON.stringify(input));
  } catch {
    toast(input);
  }
}

/** Show the toast left by toastAfterNavigation(), once. */
export function showPendingToast() {
  try {
    const raw = window.sessionStorage.getItem(PENDING_TOAST_KEY);
    if (!raw) return;
    window.sessionStorage.removeItem(PENDING_TOAST_KEY);
    const input = JSON.parse(raw) as { title?: unknown; description?: unknown };
    toast({
      title: typeof input.title === 'string' ? input.title : undefined,
      description: typeof input.description === 'string' ? input.description : undefined,
    });
  } catch {
    // Storage unavailable or a malformed entry: nothing to show.
  }
}
