import { Trans } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { Link, useSearch } from 'wouter';
import { HomeFeed } from '../../features/feed/components/home-feed';
import { SearchBox } from '../../features/feed/components/search-box';
import { CommunityFlyerButton } from '../../features/flyer/components/community-flyer-button';
import { withMessages } from '../../i18n/i18n';
import { useUser } from '../../lib/get-user';
import { useGettingStarted } from '../../lib/getting-started';
import { paths } from '../../lib/paths';
import { MemberLayout } from '../layout/member-layout';

// The guided start's forms (area, want, item) load beside the feed, not before it (ADR 033).
const GettingStarted = lazy(() =>
  withMessages(() => import('../../features/getting-started/components/getting-started')).then((module) => ({
    default: module.GettingStarted,
  })),
);

// The search results (ADR 089) in a chunk of their own that this page's chunk loads: the modules they
// share with the feed (filters, empty state, search box, the feed's query) stay in this chunk, so the
// feed's first screen is not split into one more chunk for them.
const SearchResults = lazy(() =>
  withMessages(() => import('../../features/feed/components/search-results')).then((module) => ({
    default: module.SearchResults,
  })),
);

/** /search?q= for members (issue 31, ADR 089): the search box's results over all listings near. */
export function SearchPage() {
  const { user } = useUser();
  const q = (new URLSearchParams(useSearch()).get('q') ?? '').trim();
  if (!user) return null;
  return (
    <MemberLayout>
      {/* The header's box is a desktop one: phones search from the page. */}
      <SearchBox id="search-page-search" className="mb-4 md:hidden" />
      <Suspense fallback={null}>
        <SearchResults q={q} />
      </Suspense>
    </MemberLayout>
  );
}

/** / for members (spec section 2): the guided start while it is not put away, then the feeds; nothing without a user. */
export default function HomePage() {
  const { user } = useUser();
  const guide = useGettingStarted({ enabled: Boolean(user) }).data;
  if (!user) return null;
  const { firstName, location } = user;
  return (
    <MemberLayout>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">
            {firstName ? <Trans>Welcome, {firstName}!</Trans> : <Trans>Welcome, neighbor!</Trans>}
          </h1>
          <p className="text-slate-600">
            {location ? (
              <Trans>Trades waiting around {location}.</Trans>
            ) : (
              <Trans>
                <Link href={paths.profile} className="font-medium text-brand-800 underline">
                  Set your location
                </Link>{' '}
                to see trades nearby.
              </Trans>
            )}
          </p>
        </div>
        <CommunityFlyerButton />
      </div>
      {/* Its forms (and their schema library) load only while the guide is out, not for every visit. */}
      {guide && !guide.completed ? (
        <Suspense fallback={null}>
          <GettingStarted user={user} />
        </Suspense>
      ) : null}
      <HomeFeed />
    </MemberLayout>
  );
}
