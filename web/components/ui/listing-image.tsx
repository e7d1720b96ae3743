import { Trans } from '@lingui/react/macro';
import { cn } from '../../lib/utils';

/**
 * A listing's photo, or the spec's 'No image' box of the same size when there is none.
 * `className` sets the size and shape for both.
 */
export function ListingImage({
  src,
  className,
  lazy,
  priority,
}: {
  src: string | null;
  className: string;
  lazy?: boolean;
  /** The screen's largest image (the first feed card): fetched first (ADR 033). */
  priority?: boolean;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt=""
        loading={lazy && !priority ? 'lazy' : undefined}
        fetchPriority={priority ? 'high' : undefined}
        className={cn('bg-slate-100 object-cover', className)}
      />
    );
  }
  return (
    <div className={cn('flex items-center justify-center bg-slate-100 text-xs text-slate-600', className)}>
      <Trans>No image</Trans>
    </div>
  );
}
