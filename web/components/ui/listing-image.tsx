import { Trans } from '@lingui/react/macro';
import { translateKnown } from '../../i18n/known-messages';
import { cn } from '../../lib/utils';

/**
 * A listing's photo, or the spec's 'No image' box of the same size when there is none. With
 * `category` (a card's large image), the box names the listing's category above it, in the reader's
 * language (the catalogue's name, ADR 060); it is drawn, so it follows a change of language. The
 * category line is for the eye only: the card names the category in words already.
 * `className` sets the size and shape for both.
 */
export function ListingImage({
  src,
  className,
  lazy,
  priority,
  thumbnail,
  category,
}: {
  src: string | null;
  className: string;
  lazy?: boolean;
  /** The screen's largest image (the first feed card): fetched first (ADR 033). */
  priority?: boolean;
  /**
   * A small picture beside a line of text (a barter's or a circle's items): fetched after the page's
   * text, styles and scripts, which a member opening the page needs first (ADR 094).
   */
  thumbnail?: boolean;
  /** The listing's category, as the server names it (English; translated here). */
  category?: string;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt=""
        loading={lazy && !priority ? 'lazy' : undefined}
        fetchPriority={priority ? 'high' : thumbnail ? 'low' : undefined}
        className={cn('bg-slate-100 object-cover', className)}
      />
    );
  }
  return (
    <div
      data-testid="listing-placeholder"
      className={cn(
        'flex flex-col items-center justify-center gap-1 bg-slate-100 px-2 text-center text-xs text-slate-600',
        className,
      )}
    >
      {category ? (
        <span
          aria-hidden="true"
          className="break-words text-sm font-semibold tracking-wide text-slate-700 uppercase"
        >
          {translateKnown(category)}
        </span>
      ) : null}
      <span>
        <Trans>No image</Trans>
      </span>
    </div>
  );
}
