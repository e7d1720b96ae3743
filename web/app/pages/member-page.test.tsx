import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { FeedItem, ItemDetail } from '#common/schemas/feed.ts';
import type { MemberProfile, MemberRating, MemberWant } from '#common/schemas/members.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { MemberView } from './member-page';

const ANN: MemberProfile = {
  id: 'm1',
  displayName: 'Ann R.',
  profileImageUrl: null,
  area: 'Portland, Oregon, United States',
  approximateArea: {
    latitude: 45.52,
    longitude: -122.68,
    radiusMeters: 2500,
    name: 'Portland, Oregon, United States',
  },
  memberSince: '2025-03-04T05:06:07.000Z',
  stats: { totalTrades: 12, rating: 4.8, thisMonth: 3, tradingPartners: 5, handOvers: { kept: 0, due: 0 } },
  trustedTrader: true,
  bio: 'I fix bikes and bake bread.',
};

function card(id: number, overrides: Partial<FeedItem> = {}): FeedItem {
  return {
    id,
    title: `Item ${id}`,
    description: `Thing number ${id}.`,
    category: 'tools',
    isService: false,
    imageUrl: null,
    thumbnailUrl: null,
    estimatedValue: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    isSaved: false,
    user: { id: 'm1', firstName: 'Ann', lastName: 'R.', profileImageUrl: null },
    distanceMiles: 1.2,
    owner: { rating: 4.8, completedTrades: 12, handOvers: { kept: 0, due: 0 } },
    lookingFor: ['Canoe'],
    ...overrides,
  };
}

const RATINGS: MemberRating[] = [
  {
    id: 7,
    stars: 4,
    comment: 'Friendly and on time.',
    rater: { id: 'm2', displayName: 'Bob S.', profileImageUrl: null },
    createdAt: '2026-02-10T12:00:00.000Z',
  },
  {
    id: 6,
    stars: 5,
    comment: null,
    rater: { id: null, displayName: 'Former member', profileImageUrl: null },
    createdAt: '2026-01-10T12:00:00.000Z',
  },
];

const WANTS: MemberWant[] = [
  { id: 1, title: 'Canoe', category: 'boats', isService: false },
  { id: 2, title: 'Guitar lessons', category: 'services', isService: true },
];

/** The site's settings (no map tiles: the area is told in words) and the signed-in viewer, "me". */
const SITE: SiteInfo = {
  publicUrl: 'https://barterhood.example',
  supportEmail: 'support@barterhood.example',
  legalEmail: 'legal@barterhood.example',
  licensingEmail: 'licensing@barterhood.example',
  demoLogin: false,
  googleSignIn: false,
  mapTiles: null,
};
const VIEWER: CurrentUser = {
  id: 'me',
  firstName: 'Nova',
  lastName: 'Quinn',
  email: 'nova@example.com',
  location: 'Portland, Oregon, United States',
  latitude: 45.5,
  longitude: -122.6,
  maxTravelDistance: 25,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: true,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

/** What every member page asks besides the member: the site's settings and who is signed in. */
function stubSiteAndViewer() {
  server.use(
    http.get('/api/site', () => HttpResponse.json(SITE)),
    http.get('/api/auth/user', () => HttpResponse.json(VIEWER)),
  );
}

interface Member {
  profile: MemberProfile;
  items: FeedItem[];
  wants: MemberWant[];
  ratings: MemberRating[];
}

/**
 * Answers the member page's requests for these members (by id) and item details; anything else fails.
 * Returns what the page asked, in order.
 */
function stubMembers(members: Member[], details: ItemDetail[] = []) {
  const member = (id: unknown) => members.find((m) => m.profile.id === id);
  const notFound = () => errorJson(404, 'Member not found.', 'NOT_FOUND');
  /** A paged list of one member's rows, sliced as the server slices it. */
  const paged =
    (rows: (m: Member) => unknown[]) =>
    ({ request, params }: { request: Request; params: Record<string, unknown> }) => {
      const found = member(params.id);
      if (!found) return notFound();
      const query = new URL(request.url).searchParams;
      const offset = Number(query.get('offset'));
      const limit = Number(query.get('limit'));
      return pagedJson(rows(found).slice(offset, offset + limit), rows(found).length);
    };
  stubSiteAndViewer();
  server.use(
    http.get('/api/items/:id', ({ params }) => {
      const detail = details.find((item) => item.id === Number(params.id));
      return detail ? HttpResponse.json(detail) : errorJson(404, 'Item not found.', 'NOT_FOUND');
    }),
    http.get('/api/members/:id', ({ params }) => {
      const found = member(params.id);
      return found ? HttpResponse.json(found.profile) : notFound();
    }),
    http.get('/api/members/:id/wants', ({ params }) => {
      const found = member(params.id);
      return found ? HttpResponse.json(found.wants) : notFound();
    }),
    http.get(
      '/api/members/:id/items',
      paged((m) => m.items),
    ),
    http.get(
      '/api/members/:id/ratings',
      paged((m) => m.ratings),
    ),
  );
  return recordRequests();
}

describe('MemberView', () => {
  it('shows who they are: name, area, member since, rating, Trusted Trader and completed trades', async () => {
    stubMembers([{ profile: ANN, items: [], wants: [], ratings: [] }]);
    renderWithProviders(<MemberView memberId="m1" viewerId="me" />, { path: '/members/m1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann R.' })).toBeInTheDocument();
    expect(screen.getByText('Near Portland, Oregon, United States')).toBeInTheDocument();
    expect(screen.getByText('Member since March 2025')).toBeInTheDocument();
    expect(screen.getByText('4.8 (12 trades)')).toBeInTheDocument();
    expect(screen.getByText('Trusted Trader')).toBeInTheDocument();
    expect(screen.getByText('12 completed trades, 3 this month')).toBeInTheDocument();
    // Without map tiles the approximate area is told in words, never as a point.
    expect(
      await screen.findByText(/^Approximate area: near Portland, Oregon, United States, within about/),
    ).toBeInTheDocument();
  });

  it('lists their items as feed cards with Load More, their wants and the ratings they received', async () => {
    const items = Array.from({ length: 51 }, (_, i) => card(100 - i));
    const asked = stubMembers([{ profile: ANN, items, wants: WANTS, ratings: RATINGS }]);
    renderWithProviders(<MemberView memberId="m1" viewerId="me" />, { path: '/members/m1' });

    expect(await screen.findByRole('heading', { name: 'Items offered (51)' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(50);
    const first = screen.getByRole('article', { name: 'Item 100' });
    expect(within(first).getByRole('button', { name: 'Save Item 100' })).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Ann R.' })).toHaveAttribute('href', '/members/m1');
    fireEvent.click(screen.getByRole('button', { name: 'Load More Items' }));
    expect(await screen.findByRole('article', { name: 'Item 50' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(51);
    expect(screen.queryByRole('button', { name: 'Load More Items' })).not.toBeInTheDocument();
    expect(asked.to('GET /api/members/m1/items').map((request) => request.url)).toEqual([
      '/api/members/m1/items?limit=50&offset=0',
      '/api/members/m1/items?limit=50&offset=50',
    ]);

    const wants = screen.getByRole('region', { name: 'Looking for' });
    expect(within(wants).getByText('Canoe')).toBeInTheDocument();
    expect(within(wants).getByText('Guitar lessons')).toBeInTheDocument();
    expect(within(wants).getByText('Service')).toBeInTheDocument();

    const ratings = screen.getByRole('region', { name: 'Ratings (2)' });
    expect(within(ratings).getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
    expect(within(ratings).getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
    expect(within(ratings).getByText('Friendly and on time.')).toBeInTheDocument();
    expect(within(ratings).getByRole('link', { name: 'Bob S.' })).toHaveAttribute('href', '/members/m2');
    // A deleted rater is named, not linked.
    expect(within(ratings).getByText('Former member').tagName).toBe('SPAN');
    expect(within(ratings).queryByRole('button', { name: 'Load More Ratings' })).not.toBeInTheDocument();
  });

  it('goes to the owner from a card without opening the detail, and from the detail, closing it', async () => {
    const detail: ItemDetail = {
      ...card(5),
      description: 'The whole story.',
      isOwn: false,
      isActive: true,
      approximateArea: null,
    };
    const asked = stubMembers([{ profile: ANN, items: [card(5)], wants: [], ratings: [] }], [detail]);
    const { location } = renderWithProviders(<MemberView memberId="m1" viewerId="me" />, {
      path: '/members/m1',
    });
    const article = await screen.findByRole('article', { name: 'Item 5' });

    fireEvent.click(within(article).getByRole('link', { name: 'Ann R.' }));
    expect(location.history?.at(-1)).toBe('/members/m1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(asked.sent.filter((request) => request.path.startsWith('/api/items/'))).toEqual([]);

    fireEvent.click(within(article).getByRole('button', { name: 'Item 5' }));
    const dialog = await screen.findByRole('dialog', { name: 'Item 5' });
    expect(await within(dialog).findByText('The whole story.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('link', { name: 'Ann R.' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says so when they offer, want and have been rated for nothing', async () => {
    const plain: MemberProfile = {
      ...ANN,
      id: 'me',
      displayName: 'Nova',
      area: null,
      stats: {
        totalTrades: 0,
        rating: null,
        thisMonth: 0,
        tradingPartners: 0,
        handOvers: { kept: 0, due: 0 },
      },
      trustedTrader: false,
    };
    stubMembers([{ profile: plain, items: [], wants: [], ratings: [] }]);
    renderWithProviders(<MemberView memberId="me" viewerId="me" />, { path: '/members/me' });
    expect(await screen.findByText('Nova is not offering anything right now.')).toBeInTheDocument();
    expect(
      await screen.findByText('Nova has no wants listed right now, so they are open to offers.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Nova has not been rated yet.')).toBeInTheDocument();
    expect(screen.getByText('Area not shared')).toBeInTheDocument();
    expect(screen.getByText('New trader')).toBeInTheDocument();
    expect(screen.getByText('0 completed trades')).toBeInTheDocument();
    expect(screen.queryByText('Trusted Trader')).not.toBeInTheDocument();
  });

  it('hides Save and Propose on the viewer’s own items', async () => {
    const own: MemberProfile = { ...ANN, id: 'me' };
    stubMembers([
      { profile: own, items: [card(9, { user: { ...card(9).user, id: 'me' } })], wants: [], ratings: [] },
    ]);
    renderWithProviders(<MemberView memberId="me" viewerId="me" />, { path: '/members/me' });
    const article = await screen.findByRole('article', { name: 'Item 9' });
    expect(within(article).queryByRole('button', { name: /Save/ })).not.toBeInTheDocument();
    expect(within(article).queryByRole('button', { name: 'Propose Barter' })).not.toBeInTheDocument();
  });

  it('tells the member who blocked them so, with the way to unblock, not that the account was closed', async () => {
    stubSiteAndViewer();
    const blocked = () => errorJson(403, 'You blocked this member.', 'MEMBER_BLOCKED_BY_YOU');
    server.use(http.get('/api/members/m1', blocked), http.get('/api/members/m1/:list', blocked));
    renderWithProviders(<MemberView memberId="m1" viewerId="me" />, { path: '/members/m1' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You blocked this member' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Blocked members' })).toHaveAttribute(
      'href',
      '/profile?tab=account',
    );
    expect(
      screen.queryByText(/does not exist|account was closed|could not be loaded/),
    ).not.toBeInTheDocument();
  });

  it('says Member not found for an unknown member', async () => {
    stubMembers([]);
    renderWithProviders(<MemberView memberId="nobody" viewerId="me" />, { path: '/members/nobody' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Member not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
