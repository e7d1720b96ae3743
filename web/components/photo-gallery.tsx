import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { cn } from '../lib/utils';

/** One photo of a listing, the cover first (ADR 082). */
export interface GalleryPhoto {
  imageUrl: string;
}

/**
 * A listing's photos, one at a time (ADR 082): a horizontal strip that snaps to each photo (swipe on
 * a phone, CSS scroll-snap), Previous and Next buttons with labels, the arrow keys, Home and End on
 * the focused strip, and dots to jump. Each photo's alt text is the listing's title with its place
 * ("Bike, photo 2 of 5"), and a polite live region says "Photo 2 of 5" when the photo changes.
 * One photo draws a plain image; none draws the 'No image' box. Shared by the feed's item detail
 * and the item page (import from '#web/components/photo-gallery.tsx').
 */
export function PhotoGallery({
  photos,
  title,
  className,
}: {
  photos: readonly GalleryPhoto[];
  /** The listing's title, the photos' alt text. */
  title: string;
  /** Sets the photos' height (default max-h-96). */
  className?: string;
}) {
  const { t } = useLingui();
  const [index, setIndex] = useState(0);
  const strip = useRef<HTMLElement>(null);
  const count = photos.length;
  const current = Math.min(index, Math.max(count - 1, 0));
  const imageClass = cn('h-72 max-h-96 w-full rounded-xl bg-slate-100 object-contain', className);

  const show = useCallback(
    (next: number) => {
      const target = Math.max(0, Math.min(count - 1, next));
      setIndex(target);
      const element = strip.current;
      // At once, not smoothly: a smooth scroll still running when the next key or click came settled
      // (scrollend) on the photo before, and the counter went back to it (a journey saw "Photo 2 of
      // 3" after Next). A swipe still glides by the strip's scroll-snap.
      if (element?.scrollTo) element.scrollTo({ left: target * element.clientWidth, behavior: 'instant' });
    },
    [count],
  );

  // A swipe (or a scroll by any means) settles on a photo: follow it, so the buttons and words agree.
  useEffect(() => {
    const element = strip.current;
    if (!element || count < 2) return;
    const onScroll = () => {
      if (element.clientWidth === 0) return;
      const seen = Math.round(element.scrollLeft / element.clientWidth);
      setIndex((was) => (seen >= 0 && seen < count && seen !== was ? seen : was));
    };
    element.addEventListener('scrollend', onScroll);
    return () => element.removeEventListener('scrollend', onScroll);
  }, [count]);

  if (count === 0) {
    return (
      <div className="flex h-40 items-center justify-center rounded-xl bg-slate-100 text-slate-600">
        <Trans>No image</Trans>
      </div>
    );
  }
  if (count === 1) {
    return <img src={photos[0]?.imageUrl} alt={title} className={imageClass} />;
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const moves: Record<string, number> = {
      ArrowLeft: current - 1,
      ArrowRight: current + 1,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    show(next);
  };

  const position = t`Photo ${current + 1} of ${count}`;
  return (
    <div className="grid gap-2">
      <section
        ref={strip}
        aria-roledescription={t`gallery`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling strip is focusable, so the arrow keys move it.
        tabIndex={0}
        aria-label={t`Photos of ${title}: ${position}. The arrow keys show the others.`}
        onKeyDown={onKeyDown}
        className="flex snap-x snap-mandatory overflow-x-auto rounded-xl focus-visible:outline-2 focus-visible:outline-brand-600 [scrollbar-width:none]"
        data-testid="photo-gallery-strip"
      >
        {photos.map((photo, i) => (
          <img
            key={photo.imageUrl}
            src={photo.imageUrl}
            alt={t`${title}, photo ${i + 1} of ${count}`}
            aria-hidden={i === current ? undefined : true}
            loading={i === 0 ? undefined : 'lazy'}
            draggable={false}
            className={cn(imageClass, 'shrink-0 snap-center rounded-none')}
          />
        ))}
      </section>
      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          onClick={() => show(current - 1)}
          disabled={current === 0}
          aria-label={t`Previous photo`}
          className="inline-flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-800 disabled:opacity-40"
        >
          <ChevronLeft className="h-5 w-5" aria-hidden="true" />
        </button>
        <div className="flex flex-wrap items-center justify-center gap-1">
          {photos.map((photo, i) => (
            <button
              key={photo.imageUrl}
              type="button"
              onClick={() => show(i)}
              aria-label={t`Show photo ${i + 1} of ${count}`}
              aria-current={i === current ? 'true' : undefined}
              className="inline-flex h-6 w-6 items-center justify-center"
            >
              <span
                aria-hidden="true"
                className={cn(
                  'block h-2.5 w-2.5 rounded-full',
                  i === current ? 'bg-brand-700' : 'bg-slate-300',
                )}
              />
            </button>
          ))}
        </div>
        <button
          type="button"
          onClick={() => show(current + 1)}
          disabled={current === count - 1}
          aria-label={t`Next photo`}
          className="inline-flex h-11 w-11 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-800 disabled:opacity-40"
        >
          <ChevronRight className="h-5 w-5" aria-hidden="true" />
        </button>
      </div>
      <p
        aria-live="polite"
        className="text-center text-sm text-slate-700"
        data-testid="photo-gallery-position"
      >
        {position}
      </p>
    </div>
  );
}
