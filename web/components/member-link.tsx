import type { MouseEvent } from 'react';
import { Link } from 'wouter';
import { paths } from '../lib/paths';
import { cn } from '../lib/utils';

/**
 * A member's name as a link to their page (paths.member), or plain text for a deleted account (no
 * id). The click stays with the link: a card or row around it does not also act on it. `onNavigate`
 * runs first (a dialog closes itself).
 */
export function MemberLink({
  id,
  name,
  className,
  onNavigate,
}: {
  id: string | null;
  name: string;
  className?: string;
  onNavigate?: () => void;
}) {
  if (!id) return <span className={className}>{name}</span>;
  return (
    <Link
      href={paths.member(id)}
      className={cn(
        'rounded-sm underline decoration-slate-400 underline-offset-2 hover:decoration-current',
        className,
      )}
      onClick={(event: MouseEvent) => {
        event.stopPropagation();
        onNavigate?.();
      }}
    >
      {name}
    </Link>
  );
}
