import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { BackToHome } from '../../components/layout/back-to-home';
import { Card } from '../../components/ui/card';
import { formatDate } from '../../i18n/format';
import { useSiteInfo } from '../../lib/site-info';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <div className="grid gap-3 text-slate-700">{children}</div>
    </section>
  );
}

function Email({ address }: { address: string | undefined }) {
  if (!address) return <span>…</span>;
  return (
    <a className="font-medium text-brand-800 underline underline-offset-2" href={`mailto:${address}`}>
      {address}
    </a>
  );
}

/** Terms of Service (spec section 2): ten sections, last updated today, contact addresses from settings. */
export default function TermsPage() {
  const { t } = useLingui();
  const { data: site } = useSiteInfo();
  const today = formatDate(new Date(), { year: 'numeric', month: 'long', day: 'numeric' });
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto max-w-3xl">
        <BackToHome />
        <Card className="grid gap-8 p-6 sm:p-10">
          <header className="grid gap-2">
            <h1 className="text-3xl font-bold text-slate-900">
              <Trans>Terms of Service</Trans>
            </h1>
            <p className="text-sm text-slate-600">
              <Trans>Last updated: {today}</Trans>
            </p>
          </header>

          <p className="rounded-lg bg-slate-100 p-4 text-sm text-slate-700">
            <Trans>
              Barterhood™ and the Barterhood logo are trademarks of Barterhood. All other trademarks belong to
              their respective owners and are used only to identify their products.
            </Trans>
          </p>

          <Section id="terms-acceptance" title={t`1. Acceptance of Terms`}>
            <p>
              <Trans>
                By creating an account, signing in, or otherwise using Barterhood (the “Platform”), you agree
                to these Terms of Service. If you do not agree, do not use the Platform. You must be at least
                18 years old, or the age of majority where you live, to use it.
              </Trans>
            </p>
          </Section>

          <Section id="terms-service" title={t`2. Service Description`}>
            <p>
              <Trans>
                Barterhood helps neighbors trade goods and services with people nearby without money. Members
                list items and services, keep a want list, see listings matched to their wants and travel
                radius, propose barters, message each other, complete trades and rate them.
              </Trans>
            </p>
            <p>
              <Trans>
                Barterhood is a meeting place only. We are not a party to any trade, we do not inspect, own,
                store or deliver listed goods, and we do not vouch for members, their listings or their
                services. You decide with whom you trade and on what terms.
              </Trans>
            </p>
          </Section>

          <Section id="terms-ip" title={t`3. Intellectual Property`}>
            <p>
              <Trans>
                The Platform, its software, design, text and matching technology belong to Barterhood and are
                protected by copyright, trademark and other laws. We grant you a personal, revocable,
                non-transferable licence to use the Platform for its intended purpose.
              </Trans>
            </p>
            <p>
              <Trans>
                You keep ownership of the photos and descriptions you post. By posting them you give
                Barterhood a worldwide, royalty-free licence to host, resize, display and distribute them on
                the Platform and on printed community flyers for as long as they remain listed.
              </Trans>
            </p>
          </Section>

          <Section id="terms-conduct" title={t`4. User Conduct and Prohibited Uses`}>
            <p>
              <Trans>The Platform is only for trading goods and services. You must not use it for:</Trans>
            </p>
            <ul className="list-disc space-y-1 pl-6">
              <li>
                <Trans>dating, romantic or other personal advertisements;</Trans>
              </li>
              <li>
                <Trans>explicit, sexual or otherwise adult material;</Trans>
              </li>
              <li>
                <Trans>drugs, alcohol, tobacco, weapons or anything illegal to trade where you live;</Trans>
              </li>
              <li>
                <Trans>scraping, harvesting or bulk collection of listings or member information;</Trans>
              </li>
              <li>
                <Trans>
                  reverse engineering, decompiling or interfering with the Platform or its security;
                </Trans>
              </li>
              <li>
                <Trans>sharing contact information for purposes other than arranging a trade;</Trans>
              </li>
              <li>
                <Trans>harassment, discrimination, fraud, spam or impersonating another person.</Trans>
              </li>
            </ul>
            <p>
              <Trans>
                Meet in public places, inspect items before you trade, and trust your instincts. You are
                responsible for the accuracy of your listings and for honouring the trades you agree to.
              </Trans>
            </p>
          </Section>

          <Section id="terms-moderation" title={t`5. Content Moderation and Platform Purpose`}>
            <p>
              <Trans>
                We check listings, want lists, messages and profile text for content that breaks these Terms,
                and we may refuse or remove it automatically or by review. Violations lead to immediate
                content removal and account suspension or ban without warning. We may also remove content or
                accounts that put other members at risk or damage the Platform’s purpose as a neighborhood
                trading place.
              </Trans>
            </p>
          </Section>

          <Section id="terms-patent" title={t`6. Patent and Trade Secret Notice`}>
            <p>
              <Trans>
                Barterhood’s matching, scoring and moderation methods, including how wants and offers are
                paired and ranked, are proprietary and may be the subject of pending patent applications and
                trade secrets. Nothing in these Terms grants you any right to them beyond using the Platform
                as offered.
              </Trans>
            </p>
          </Section>

          <Section id="terms-dmca" title={t`7. DMCA and Copyright Complaints`}>
            <p>
              <Trans>
                If you believe content on the Platform infringes your copyright, send a notice to our legal
                contact below identifying the work, the content and where it appears, your contact details, a
                statement of good-faith belief that the use is not authorised, and a statement, under penalty
                of perjury, that your notice is accurate and that you are the owner or authorised to act for
                the owner. We remove infringing content promptly and close the accounts of repeat infringers.
              </Trans>
            </p>
          </Section>

          <Section id="terms-liability" title={t`8. Limitation of Liability`}>
            <p>
              <Trans>
                The Platform is provided “as is” and “as available”, without warranties of any kind. To the
                fullest extent the law allows, Barterhood is not liable for any indirect, incidental or
                consequential damages, or for any loss arising from trades, meetings, items or services
                exchanged between members. Our total liability for any claim about the Platform is limited to
                one hundred US dollars.
              </Trans>
            </p>
          </Section>

          <Section id="terms-law" title={t`9. Governing Law`}>
            <p>
              <Trans>
                These Terms are governed by the laws of the State of Oregon, United States, without regard to
                its conflict-of-law rules. Disputes will be resolved in the state or federal courts located in
                Multnomah County, Oregon, unless the law where you live gives you the right to bring claims
                elsewhere.
              </Trans>
            </p>
          </Section>

          <Section id="terms-contact" title={t`10. Contact Information`}>
            <p>
              <Trans>Questions about these Terms, copyright notices and other legal matters:</Trans>
            </p>
            <ul className="list-disc space-y-1 pl-6">
              <li>
                <Trans>
                  Legal: <Email address={site?.legalEmail} />
                </Trans>
              </li>
              <li>
                <Trans>
                  Licensing: <Email address={site?.licensingEmail} />
                </Trans>
              </li>
              <li>
                <Trans>
                  Support: <Email address={site?.supportEmail} />
                </Trans>
              </li>
            </ul>
          </Section>
        </Card>
      </div>
    </main>
  );
}
