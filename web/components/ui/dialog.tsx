import { useLingui } from '@lingui/react/macro';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ComponentProps, type ReactNode, useEffect, useRef } from 'react';
import { cn } from '../../lib/utils';
import { registerOpenDialog } from './open-dialogs';

export const Dialog = DialogPrimitive.Root;

/** Drawn inside the dialog's content, so mounted only while the dialog is open (open-dialogs.ts). */
function OpenDialogMark() {
  useEffect(registerOpenDialog, []);
  return null;
}
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * A modal (Radix): focus trapped, Escape closes, titled for screen readers. It hangs from near the
 * top of the screen and opens scrolled to its top, so its title shows on any viewport however tall
 * the dialog or wherever its first field is (issue 17); a tall dialog scrolls inside itself.
 */
export function DialogContent({
  title,
  description,
  children,
  className,
  onOpenAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { title: ReactNode; description?: ReactNode }) {
  const { t } = useLingui();
  const content = useRef<HTMLDivElement>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-950/50" />
      <DialogPrimitive.Content
        ref={content}
        className={cn(
          'fixed top-3 left-1/2 z-50 grid max-h-[calc(100dvh-1.5rem)] w-[calc(100%-1.5rem)] max-w-lg -translate-x-1/2 gap-4 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl sm:top-[5vh] sm:max-h-[90vh]',
          className,
        )}
        onOpenAutoFocus={(event) => {
          onOpenAutoFocus?.(event);
          // After the first field took the focus: back to the top, where the title is.
          requestAnimationFrame(() => {
            if (content.current) content.current.scrollTop = 0;
          });
        }}
        {...(description ? {} : { 'aria-describedby': undefined })}
        {...props}
      >
        <OpenDialogMark />
        <div className="pr-8">
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">
            {title}
          </DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">
              {description}
            </DialogPrimitive.Description>
          ) : null}
        </div>
        {children}
        <DialogPrimitive.Close
          aria-label={t`Close`}
          className="absolute top-4 right-4 rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
        >
          <X className="h-5 w-5" aria-hidden="true" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
