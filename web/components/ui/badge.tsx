import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/utils';

const tones = {
  neutral: 'bg-slate-100 text-slate-800',
  brand: 'bg-brand-100 text-brand-900',
  accent: 'bg-amber-100 text-amber-900',
  success: 'bg-green-100 text-green-900',
} as const;

/** A small label: category, Service, Completed, Trusted Trader. */
export function Badge({
  className,
  tone = 'neutral',
  ...props
}: HTMLAttributes<HTMLSpanElement> & { tone?: keyof typeof tones }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
