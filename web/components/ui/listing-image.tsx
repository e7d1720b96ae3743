import { cn } from '../../lib/utils';

/**
 * A listing's photo, or the spec's 'No image' box of the same size when there is none.
 * `className` sets the size and shape for both.
 */
export function ListingImage({
  src,
  className,
  lazy,
}: {
  src: string | null;
  className: string;
  lazy?: boolean;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt=""
        loading={lazy ? 'lazy' : undefined}
        className={cn('bg-slate-100 object-cover', className)}
      />
    );
  }
  return (
    <div className={cn('flex items-center justify-center bg-slate-100 text-xs text-slate-600', className)}>
      No image
    </div>
  );
}
