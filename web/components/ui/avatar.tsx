import { useState } from 'react';
import { cn } from '../../lib/utils';

/** Initials from first and last name: the avatar fallback (spec section 3). */
export function initialsOf(firstName?: string | null, lastName?: string | null): string {
  const initials = `${firstName?.trim()[0] ?? ''}${lastName?.trim()[0] ?? ''}`.toUpperCase();
  return initials || '?';
}

/** A round profile picture, or the member's initials when there is none or it fails to load. */
export function Avatar({
  firstName,
  lastName,
  imageUrl,
  className,
}: {
  firstName?: string | null;
  lastName?: string | null;
  imageUrl?: string | null;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const classes = cn(
    'flex h-9 w-9 items-center justify-center overflow-hidden rounded-full bg-brand-100 text-sm font-semibold text-brand-800',
    className,
  );
  if (imageUrl && !failed) {
    return <img src={imageUrl} alt="" className={classes} onError={() => setFailed(true)} />;
  }
  return (
    <span className={classes} aria-hidden="true">
      {initialsOf(firstName, lastName)}
    </span>
  );
}
