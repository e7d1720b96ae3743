import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'wouter';
import { LanguageSelect } from '../../i18n/language-select';
import { paths } from '../../lib/paths';

/**
 * Footer: Terms of Service and the accessibility statement (issue 17) are links; Privacy Policy and
 * Contact are plain text (spec section 2); the language menu (ADR 036).
 */
export function SiteFooter() {
  const { t } = useLingui();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-slate-600 sm:flex-row">
        <p>
          <Trans>© {year} Barterhood. Trade with your neighbors.</Trans>
        </p>
        <nav aria-label={t`Footer`} className="flex flex-wrap items-center justify-center gap-4">
          <Link href={paths.terms} className="text-brand-800 underline-offset-4 hover:underline">
            <Trans>Terms of Service</Trans>
          </Link>
          <Link href={paths.accessibility} className="text-brand-800 underline-offset-4 hover:underline">
            <Trans>Accessibility</Trans>
          </Link>
          <span>
            <Trans>Privacy Policy</Trans>
          </span>
          <span>
            <Trans>Contact</Trans>
          </span>
          <LanguageSelect />
        </nav>
      </div>
    </footer>
  );
}
