import { t } from '@lingui/core/macro';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX } from '#common/constants.ts';
import { cn } from '../../lib/utils';
import { dismissErrorToasts, dismissToast, useToasts } from './use-toast';

/**
 * A toast's look. A toast can show without the member's doing (one left by the page before, shown
 * as the app starts), so the server's drawn pages always carry these styles (web/entry-server.tsx,
 * ADR 113).
 */
export const TOAST_CLASSES = {
  root: [
    'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-8 shadow-lg',
    'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
    'data-[state=closed]:hidden',
  ].join(' '),
  destructive: 'border-red-700 bg-red-700 text-white',
  plain: 'border-slate-200 bg-white text-slate-900',
  body: 'grid gap-1',
  title: 'text-sm font-semibold',
  description: 'text-sm opacity-90',
  close: 'absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100',
  closeIcon: 'h-4 w-4',
  viewport:
    'fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]',
} as const;

/**
 * The one toast region (Radix): swipe right past 50 px to dismiss, F8 focuses it, at most 420 px wide.
 * Moving to another screen closes an open error toast.
 */
export function Toaster() {
  // Radix writes the hot key into the region's name in place of {hotkey}.
  const hotkey = '{hotkey}';
  const toasts = useToasts();
  // Another screen: an error toast of the last one goes (a success toast that led here stays).
  const [location] = useLocation();
  const shownAt = useRef(location);
  useEffect(() => {
    if (shownAt.current === location) return;
    shownAt.current = location;
    dismissErrorToasts();
  }, [location]);
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
      label={t`Notification`}
    >
      {toasts.map(({ id, title, description, variant, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          className={cn(
            TOAST_CLASSES.root,
            variant === 'destructive' ? TOAST_CLASSES.destructive : TOAST_CLASSES.plain,
          )}
        >
          <div className={TOAST_CLASSES.body}>
            {title ? (
              <ToastPrimitive.Title className={TOAST_CLASSES.title}>{title}</ToastPrimitive.Title>
            ) : null}
            {description ? (
              <ToastPrimitive.Description className={TOAST_CLASSES.description}>
                {description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close aria-label={t`Close`} className={TOAST_CLASSES.close}>
            <X className={TOAST_CLASSES.closeIcon} aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport label={t`Notifications (${hotkey})`} className={TOAST_CLASSES.viewport} />
    </ToastPrimitive.Provider>
  );
}
