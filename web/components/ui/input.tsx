import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from '../../lib/utils';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

/** A text input with the app's looks; pair it with a <Label htmlFor>. */
export function Input({ className, ...props }: InputProps) {
  return (
    <input
      className={cn(
        'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500',
        'focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40 aria-invalid:border-red-600',
        'disabled:cursor-not-allowed disabled:bg-slate-100',
        className,
      )}
      {...props}
    />
  );
}
