import { useLingui } from '@lingui/react/macro';
import { Star } from 'lucide-react';
import { cn } from '../../lib/utils';

/** A rating of 1 to 5 as five stars, read out as "4 out of 5 stars". */
export function Stars({ stars, className }: { stars: number; className?: string }) {
  const { t } = useLingui();
  return (
    <span
      role="img"
      aria-label={t`${stars} out of 5 stars`}
      className={cn('flex items-center gap-0.5', className)}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          aria-hidden="true"
          className={cn('h-4 w-4', n <= stars ? 'fill-amber-400 text-amber-500' : 'text-slate-300')}
        />
      ))}
    </span>
  );
}
