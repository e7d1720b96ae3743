import { ArrowLeftRight } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '../../lib/paths';

/** The Barterhood logo, linking home. */
export function Logo() {
  return (
    <Link href={paths.home} className="flex items-center gap-2 rounded-md text-lg font-bold text-brand-800">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-brand-700 text-white">
        <ArrowLeftRight className="h-5 w-5" aria-hidden="true" />
      </span>
      Barterhood
    </Link>
  );
}
