import type { Ref, TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  ref?: Ref<HTMLTextAreaElement>;
}

/** A multi-line text field with the app's looks. */
export function Textarea({ className, ...props }: TextareaProps) {
  return (
    <textarea
      className={cn(
        'min-h-24 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500',
        'focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40 aria-invalid:border-red-600',
        className,
      )}
      {...props}
    />
  );
}
