import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { BackToHome } from '../../components/layout/back-to-home';
import { Card } from '../../components/ui/card';
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

/**
 * The accessibility statement (issue 17): the standard Barterhood aims at, how that is checked, what
 * is known not to meet it yet, and where to write. Linked from the footer on every page.
 */
export default function AccessibilityPage() {
  const { t } = useLingui();
  const { data: site } = useSiteInfo();
  const support = site?.supportEmail;
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto max-w-3xl">
        <BackToHome />
        <Card className="grid gap-8 p-6 sm:p-10">
          <header className="grid gap-2">
            <h1 className="text-3xl font-bold text-slate-900">
              <Trans>Accessibility</Trans>
            </h1>
            <p className="text-slate-700">
              <Trans>
                Barterhood is for every neighbor, including those who use a screen reader, a keyboard, a
                switch, zoom or voice control.
              </Trans>
            </p>
          </header>

          <Section id="standard" title={t`The standard we aim at`}>
            <p>
              <Trans>
                We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA on every
                screen, on phones and on computers.
              </Trans>
            </p>
          </Section>

          <Section id="testing" title={t`How we test`}>
            <ul className="grid list-disc gap-2 pl-6">
              <li>
                <Trans>
                  Every screen is opened in a real browser (Chromium, at desktop and phone sizes) by our
                  automated journeys, and checked with the axe accessibility engine: a serious or critical
                  problem stops a release.
                </Trans>
              </li>
              <li>
                <Trans>
                  The journeys use the app the way assistive technology sees it: by the names and roles of
                  buttons, links, fields and headings, so a control without a name fails them.
                </Trans>
              </li>
              <li>
                <Trans>
                  The sign-up, sign-in, feeds, landing page and notifications are walked with the keyboard
                  alone.
                </Trans>
              </li>
              <li>
                <Trans>
                  Lighthouse's accessibility audit runs against the landing page, the feed, the profile and a
                  barter page, and must score at least 95.
                </Trans>
              </li>
              <li>
                <Trans>
                  Every form field has a visible label, and every error is written next to its field.
                </Trans>
              </li>
            </ul>
          </Section>

          <Section id="gaps" title={t`Known gaps`}>
            <ul className="grid list-disc gap-2 pl-6">
              <li>
                <Trans>
                  We have not yet tested with people who use screen readers day to day, or with VoiceOver,
                  NVDA or TalkBack by hand; automated checks find only part of what they would.
                </Trans>
              </li>
              <li>
                <Trans>
                  New messages that arrive while a conversation is open appear in the list but are not read
                  out by screen readers.
                </Trans>
              </li>
              <li>
                <Trans>
                  The printed flyers are made to be seen: their QR code and tear-off tabs carry the site's
                  address in text, but the layout itself is visual.
                </Trans>
              </li>
              <li>
                <Trans>
                  Photo analysis suggests a title and description from what is printed on an item; it cannot
                  describe a photo without text, so those fields stay for you to fill in.
                </Trans>
              </li>
            </ul>
          </Section>

          <Section id="contact" title={t`Tell us`}>
            {support ? (
              <p>
                <Trans>
                  If something in Barterhood is hard or impossible for you to use, write to{' '}
                  <a
                    className="font-medium text-brand-800 underline underline-offset-2"
                    href={`mailto:${support}`}
                  >
                    {support}
                  </a>
                  . Say which screen and what you were trying to do.
                </Trans>
              </p>
            ) : (
              <p>
                <Trans>
                  If something in Barterhood is hard or impossible for you to use, write to our support
                  address. Say which screen and what you were trying to do.
                </Trans>
              </p>
            )}
          </Section>
        </Card>
      </div>
    </main>
  );
}
