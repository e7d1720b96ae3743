import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { HeartHandshake, MapPin, Sparkles, UserRound } from 'lucide-react';
import { Link } from 'wouter';
import { GoogleIcon } from '#web/components/layout/google-icon.tsx';
import { Logo } from '#web/components/layout/logo.tsx';
import { SiteFooter } from '#web/components/layout/site-footer.tsx';
import { MAIN_CONTENT_ID } from '#web/components/layout/skip-link.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { paths, serverPaths } from '#web/lib/paths.ts';
import { useSiteInfo } from '#web/lib/site-info.ts';
import { EarlyUserBanner } from './early-user-banner';

const STEPS = [
  {
    icon: UserRound,
    title: msg`Create Your Profile`,
    text: msg`Sign up for free, add photos and descriptions of the things and skills you can offer, and set how far you are happy to travel.`,
  },
  {
    icon: Sparkles,
    title: msg`Smart Matching`,
    text: msg`Keep a want list and we match it against what your neighbors offer, favouring trades where you each have something the other wants.`,
  },
  {
    icon: MapPin,
    title: msg`Local Trading`,
    text: msg`Propose a barter, agree the details in messages, meet nearby and swap. No money changes hands.`,
  },
] as const;

/** The signed-out landing page at / (spec section 2). */
export function LandingPage() {
  const { t } = useLingui();
  // Google sign-in only where it is set up. The site's settings come with the drawn page (the early
  // user banner reads them too), so no request is added; unknown yet, the buttons wait.
  const { data: site } = useSiteInfo();
  const google = site?.googleSignIn === true;
  return (
    <div className="flex min-h-screen flex-col">
      <EarlyUserBanner />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
          <Logo />
          <nav aria-label={t`Account`} className="flex items-center gap-2">
            {google ? (
              <Button asChild variant="secondary" size="sm" className="hidden sm:inline-flex">
                <a href={serverPaths.googleSignIn}>
                  <GoogleIcon className="h-4 w-4" />
                  <Trans>Sign In with Google</Trans>
                </a>
              </Button>
            ) : null}
            <Button asChild size="sm">
              <Link href={paths.login}>
                <Trans>Sign In</Trans>
              </Link>
            </Button>
          </nav>
        </div>
      </header>

      <main id={MAIN_CONTENT_ID} className="flex-1">
        <section className="bg-gradient-to-br from-brand-50 via-white to-amber-50">
          <div className="mx-auto grid max-w-6xl gap-8 px-4 py-16 sm:py-24">
            <div className="max-w-2xl">
              <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
                <Trans>Trade with your neighbors. No money needed.</Trans>
              </h1>
              <p className="mt-5 text-lg text-slate-700">
                <Trans>
                  Barterhood connects you with people nearby to swap goods and services: the drill in your
                  garage for guitar lessons down the street, seedlings for a bike tune-up.
                </Trans>
              </p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                <Button asChild size="lg">
                  <Link href={paths.login}>
                    <Trans>Sign In or Create an Account</Trans>
                  </Link>
                </Button>
                {google ? (
                  <Button asChild size="lg" variant="secondary">
                    <a href={serverPaths.googleSignIn}>
                      <GoogleIcon className="h-5 w-5" />
                      <Trans>Sign In with Google</Trans>
                    </a>
                  </Button>
                ) : null}
              </div>
            </div>
          </div>
        </section>

        <section aria-labelledby="how-it-works" className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="how-it-works" className="text-center text-3xl font-bold">
            <Trans>How it works</Trans>
          </h2>
          <ol className="mt-10 grid gap-6 md:grid-cols-3">
            {STEPS.map(({ icon: Icon, title, text }, index) => {
              const step = index + 1;
              return (
                <li key={title.id} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                  <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
                    <Icon className="h-6 w-6" aria-hidden="true" />
                  </span>
                  <h3 className="mt-4 text-lg font-semibold">
                    <span className="sr-only">
                      <Trans>Step {step}:</Trans>{' '}
                    </span>
                    {t(title)}
                  </h3>
                  <p className="mt-2 text-slate-600">{t(text)}</p>
                </li>
              );
            })}
          </ol>
        </section>

        <section aria-labelledby="mission" className="bg-brand-800 text-white">
          <div className="mx-auto max-w-4xl px-4 py-16 text-center">
            <HeartHandshake className="mx-auto h-10 w-10 text-amber-300" aria-hidden="true" />
            <h2 id="mission" className="mt-4 text-3xl font-bold">
              <Trans>Our Mission</Trans>
            </h2>
            <p className="mt-4 text-lg text-brand-50">
              <Trans>
                We are building resilient communities where neighbors trade resources through intelligent
                local matching, so that what one household no longer needs becomes what another was looking
                for.
              </Trans>
            </p>
            <Button asChild size="lg" variant="accent" className="mt-8">
              <Link href={paths.register}>
                <Trans>Get Started Now</Trans>
              </Link>
            </Button>
          </div>
        </section>
      </main>

      <SiteFooter />
    </div>
  );
}
