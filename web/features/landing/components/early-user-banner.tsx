import { Trans, useLingui } from '@lingui/react/macro';
import { Megaphone } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '#web/lib/paths.ts';
import { useSiteInfo } from '#web/lib/site-info.ts';

/** The early-user banner (spec section 1): print a flyer, post it locally, report problems. */
export function EarlyUserBanner() {
  const { data: site } = useSiteInfo();
  const { t } = useLingui();
  const support = site ? (
    <a className="font-semibold underline underline-offset-2" href={`mailto:${site.supportEmail}`}>
      {site.supportEmail}
    </a>
  ) : (
    t`our support address`
  );
  return (
    <aside aria-label={t`Early user notice`} className="bg-amber-100 text-amber-950">
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-3 text-sm">
        <Megaphone className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <p>
          <Trans>
            You're one of our first neighbors! Help Barterhood grow:{' '}
            <Link href={paths.flyer} className="font-semibold underline underline-offset-2">
              print a flyer
            </Link>{' '}
            and post it on a local noticeboard. Found something that doesn't work? Tell us at {support}.
          </Trans>
        </p>
      </div>
    </aside>
  );
}
