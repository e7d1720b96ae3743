import { Link } from 'wouter';
import { paths } from '../../app/paths';

/**
 * Footer: Terms of Service and the accessibility statement (issue 17) are links; Privacy Policy and
 * Contact are plain text (spec section 2).
 */
export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-600 sm:flex-row">
        <p>© {new Date().getFullYear()} Barterhood. Trade with your neighbors.</p>
        <nav aria-label="Footer" className="flex flex-wrap items-center justify-center gap-4">
          <Link href={paths.terms} className="text-brand-800 underline-offset-4 hover:underline">
            Terms of Service
          </Link>
          <Link href={paths.accessibility} className="text-brand-800 underline-offset-4 hover:underline">
            Accessibility
          </Link>
          <span>Privacy Policy</span>
          <span>Contact</span>
        </nav>
      </div>
    </footer>
  );
}
