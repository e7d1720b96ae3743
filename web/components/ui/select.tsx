import type { Ref, SelectHTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement>;
}

/** A native select: accessible and keyboard-friendly everywhere, styled like the inputs. */
export function Select({ className, ...props }: SelectProps) {
  return (
    <select
      className={cn(
        'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900',
        'focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40 aria-invalid:border-red-600',
        className,
      )}
      {...props}
    />
  );
}
