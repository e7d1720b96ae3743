import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedItem, ItemDetail } from '../../../common/schemas/feed';
import { TOTAL_COUNT_HEADER } from '../../../common/schemas/listings';
import type { MemberProfile, MemberRating, MemberWant } from '../../../common/schemas/members';
import { jsonResponse, renderWithProviders } from '../../testing/render';
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
  stats: { totalTrades: 12, rating: 4.8, thisMonth: 3 },
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
    owner: { rating: 4.8, completedTrades: 12 },
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

interface Member {
  profile: MemberProfile;
  items: FeedItem[];
  wants: MemberWant[];
  ratings: MemberRating[];
}

/** Answers the member page's requests for these members (by id) and item details; anything else fails. */
function stubApi(members: Member[], details: ItemDetail[] = []) {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      requests.push(`${url.pathname}${url.search}`);
      const detail = /^\/api\/items\/(\d+)$/.exec(url.pathname);
      if (detail) return jsonResponse(details.find((item) => item.id === Number(detail[1])));
      const match = /^\/api\/members\/([^/]+)(?:\/(items|wants|ratings))?$/.exec(url.pathname);
      const member = members.find((m) => m.profile.id === match?.[1]);
      if (!match) throw new Error(`unexpected request ${url.pathname}`);
      if (!member) return jsonResponse({ message: 'Member not found.', code: 'NOT_FOUND' }, 404);
      const list = match[2];
      if (!list) return jsonResponse(member.profile);
      if (list === 'wants') return jsonResponse(member.wants);
      const rows = list === 'items' ? member.items : member.ratings;
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const response = jsonResponse(rows.slice(offset, offset + limit));
      response.headers.set(TOTAL_COUNT_HEADER, String(rows.length));
      return response;
    }),
  );
  return requests;
}

afterEach(() => vi.unstubAllGlobals());

describe('MemberView', () => {
  it('shows who they are: name, area, member since, rating, Trusted Trader and completed trades', async () => {
    stubApi([{ profile: ANN, items: [], wants: [], ratings: [] }]);
    renderWithProviders(<MemberView memberId="m1" viewerId="me" />, { path: '/members/m1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ann R.' })).toBeInTheDocument();
    expect(screen.getByText('Near Portland, Oregon, United States')).toBeInTheDocument();
    expect(screen.getByText('Member since March 2025')).toBeInTheDocument();
    expect(screen.getByText('4.8 (12 trades)')).toBeInTheDocument();
    expect(screen.getByText('Trusted Trader')).toBeInTheDocument();
    expect(screen.getByText('12 completed trades, 3 this month')).toBeInTheDocument();
  });

  it('lists their items as feed cards with Load More, their wants and the ratings they received', async () => {
    const items = Array.from({ length: 51 }, (_, i) => card(100 - i));
    const requests = stubApi([{ profile: ANN, items, wants: WANTS, ratings: RATINGS }]);
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
    expect(requests).toContain('/api/members/m1/items?limit=50&offset=50');

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
    const requests = stubApi([{ profile: ANN, items: [card(5)], wants: [], ratings: [] }], [detail]);
    const { location } = renderWithProviders(<MemberView memberId="m1" viewerId="me" />, {
      path: '/members/m1',
    });
    const article = await screen.findByRole('article', { name: 'Item 5' });

    fireEvent.click(within(article).getByRole('link', { name: 'Ann R.' }));
    expect(location.history?.at(-1)).toBe('/members/m1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(requests.filter((url) => url.startsWith('/api/items/'))).toEqual([]);

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
      stats: { totalTrades: 0, rating: null, thisMonth: 0 },
      trustedTrader: false,
    };
    stubApi([{ profile: plain, items: [], wants: [], ratings: [] }]);
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
    stubApi([
      { profile: own, items: [card(9, { user: { ...card(9).user, id: 'me' } })], wants: [], ratings: [] },
    ]);
    renderWithProviders(<MemberView memberId="me" viewerId="me" />, { path: '/members/me' });
    const article = await screen.findByRole('article', { name: 'Item 9' });
    expect(within(article).queryByRole('button', { name: /Save/ })).not.toBeInTheDocument();
    expect(within(article).queryByRole('button', { name: 'Propose Barter' })).not.toBeInTheDocument();
  });

  it('tells the member who blocked them so, with the way to unblock, not that the account was closed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({ message: 'You blocked this member.', code: 'MEMBER_BLOCKED_BY_YOU' }, 403),
      ),
    );
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
    stubApi([]);
    renderWithProviders(<MemberView memberId="nobody" viewerId="me" />, { path: '/members/nobody' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Member not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});
