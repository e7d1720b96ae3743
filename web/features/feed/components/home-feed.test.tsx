import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { AddItemProvider } from '#web/components/feature-slots.tsx';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { HomeFeed } from './home-feed';

afterEach(() => {
  vi.useRealTimers();
});

function feedItem(id: number, overrides: Partial<FeedItem> = {}): FeedItem {
  return {
    id,
    title: `Item ${id}`,
    description: `Description of item ${id}`,
    category: 'tools',
    isService: false,
    imageUrl: null,
    thumbnailUrl: null,
    estimatedValue: 20,
    createdAt: new Date().toISOString(),
    isSaved: false,
    user: { id: 'u1', firstName: 'Maya', lastName: 'O.', profileImageUrl: null },
    distanceMiles: 1.24,
    owner: { rating: 4.9, completedTrades: 23, handOvers: { kept: 0, due: 0 } },
    lookingFor: ['Kayak paddle', 'Guitar lessons'],
    match: {
      score: 87,
      wantId: 1,
      wantTitle: 'Cordless drill',
      mutual: true,
      theirWantTitle: 'Mountain bike',
    },
    ...overrides,
  };
}

/** Where the member stands in the guided start, as the empty states read it. */
let steps = { area: true, want: false, item: false, completed: true };

/** The feeds: one page of items by offset (the same for every feed). */
const feedPages = (pages: Record<number, FeedItem[]>) =>
  http.get('/api/feed/:feed', ({ request }) =>
    HttpResponse.json(pages[Number(new URL(request.url).searchParams.get('offset'))] ?? []),
  );

const gettingStarted = () => http.get('/api/account/getting-started', () => HttpResponse.json(steps));

/** Nobody signed in as the safety tip asks (it waits for a member; its own test below signs one in). */
const signedOut = () => http.get('/api/auth/user', () => errorJson(401, 'Please sign in.', 'UNAUTHORIZED'));

/** Answers feed requests from `pages` (by offset) and records the feed URLs asked for. */
function stubFeed(pages: Record<number, FeedItem[]>) {
  server.use(signedOut(), gettingStarted(), feedPages(pages));
  const api = recordRequests();
  return {
    get urls() {
      return api.sent
        .filter((request) => request.path.startsWith('/api/feed/'))
        .map((request) => request.url);
    },
  };
}

const renderFeed = () =>
  renderWithProviders(
    <AddItemProvider>
      <HomeFeed />
    </AddItemProvider>,
  );

describe('HomeFeed', () => {
  it('shows six loading placeholders, then cards with the real values', async () => {
    stubFeed({ 0: [feedItem(1)] });
    const { container } = renderFeed();
    expect(container.querySelectorAll('[aria-hidden="true"].animate-pulse')).toHaveLength(6);
    const card = await screen.findByRole('article', { name: 'Item 1' });
    expect(within(card).getByText('87% match')).toBeInTheDocument();
    expect(within(card).getByText('Matches your want: Cordless drill')).toBeInTheDocument();
    expect(within(card).getByText('They want Mountain bike')).toBeInTheDocument();
    expect(within(card).getByText('Maya O.')).toBeInTheDocument();
    expect(within(card).getByText('4.9 (23 trades)')).toBeInTheDocument();
    expect(within(card).getByText('1.2 mi')).toBeInTheDocument();
    expect(within(card).getByText('Kayak paddle, Guitar lessons')).toBeInTheDocument();
    expect(within(card).getByText('No image')).toBeInTheDocument();
  });

  it('marks an item a proposed trade circle would bring, with the loop and a link to the circle', async () => {
    const path = 'You give Bike to Ben T., Ben T. gives Tent to Maya O., Maya O. gives Item 1 to you';
    stubFeed({
      0: [
        feedItem(1, {
          match: { score: 87, wantId: 1, wantTitle: 'Tent', mutual: false, circle: { circleId: 5, path } },
        }),
        feedItem(2),
      ],
    });
    renderFeed();
    const card = await screen.findByRole('article', { name: 'Item 1' });
    expect(within(card).getByText('In a trade circle')).toBeInTheDocument();
    expect(within(card).getByText(path)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'See the trade circle for Item 1' })).toHaveAttribute(
      'href',
      '/circles/5',
    );
    const other = screen.getByRole('article', { name: 'Item 2' });
    expect(within(other).queryByText('In a trade circle')).not.toBeInTheDocument();
  });

  it('shows no distance when the server sends none, but the hint to set a location', async () => {
    stubFeed({ 0: [feedItem(1, { distanceMiles: null })] });
    renderFeed();
    const card = await screen.findByRole('article', { name: 'Item 1' });
    expect(within(card).getByText('Set location to see distance')).toBeInTheDocument();
    expect(within(card).queryByText(/\d mi$/)).not.toBeInTheDocument();
  });

  it('sends the feed, distance and sort to the server, and shows the match only on Barter Match', async () => {
    const feed = stubFeed({ 0: [feedItem(1, { match: undefined })] });
    renderFeed();
    await screen.findByRole('article', { name: 'Item 1' });
    expect(feed.urls[0]).toMatch(/^\/api\/feed\/barter-match\?limit=20&offset=0&radius=25&sort=recent$/);

    await userEvent.selectOptions(screen.getByLabelText('Distance'), '5');
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'value');
    await userEvent.click(screen.getByRole('tab', { name: 'Everything' }));
    await waitFor(() =>
      expect(feed.urls.at(-1)).toBe('/api/feed/everything?limit=20&offset=0&radius=5&sort=value'),
    );
    expect(await screen.findByRole('article', { name: 'Item 1' })).toBeInTheDocument();
    expect(screen.queryByText(/% match/)).not.toBeInTheDocument();
  });

  it('filters by condition with a labelled select, and back to any condition', async () => {
    const feed = stubFeed({ 0: [feedItem(1, { match: undefined })] });
    renderFeed();
    await screen.findByRole('article', { name: 'Item 1' });
    const select = screen.getByRole('combobox', { name: 'Condition' });
    expect(select).toHaveValue('');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Any condition', 'New', 'Like new or better', 'Good or better', 'Fair or better']);
    expect(feed.urls[0]).not.toContain('condition');
    // A native select: the browser's own keyboard handling (arrows, type-ahead) works on it.
    expect(select.tagName).toBe('SELECT');
    await userEvent.selectOptions(select, 'like-new');
    await waitFor(() =>
      expect(feed.urls.at(-1)).toBe(
        '/api/feed/barter-match?limit=20&offset=0&radius=25&sort=recent&condition=like-new',
      ),
    );
    await userEvent.selectOptions(select, 'good');
    await userEvent.click(screen.getByRole('tab', { name: 'Everything' }));
    await waitFor(() =>
      expect(feed.urls.at(-1)).toBe(
        '/api/feed/everything?limit=20&offset=0&radius=25&sort=recent&condition=good',
      ),
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Condition' }), '');
    await waitFor(() =>
      expect(feed.urls.at(-1)).toBe('/api/feed/everything?limit=20&offset=0&radius=25&sort=recent'),
    );
  });

  it('random barter sends the same seed for every page of the browsing session', async () => {
    const full = Array.from({ length: 20 }, (_, i) => feedItem(i + 1));
    const feed = stubFeed({ 0: full, 20: [feedItem(21)] });
    renderFeed();
    await userEvent.click(screen.getByRole('tab', { name: 'Random Barter' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Load More Items' }));
    await screen.findByRole('article', { name: 'Item 21' });
    const seeds = feed.urls
      .filter((u) => u.includes('random-barter'))
      .map((u) => new URL(u, 'http://x').searchParams.get('seed'));
    expect(seeds.length).toBeGreaterThanOrEqual(2);
    expect(new Set(seeds).size).toBe(1);
  });

  it('Load More Items fetches the next 20 until a page comes back short', async () => {
    const full = Array.from({ length: 20 }, (_, i) => feedItem(i + 1));
    stubFeed({ 0: full, 20: [feedItem(21), feedItem(22)] });
    renderFeed();
    await screen.findByRole('article', { name: 'Item 20' });
    await userEvent.click(screen.getByRole('button', { name: 'Load More Items' }));
    await screen.findByRole('article', { name: 'Item 22' });
    expect(screen.getAllByRole('article')).toHaveLength(22);
    expect(screen.queryByRole('button', { name: 'Load More Items' })).not.toBeInTheDocument();
  });

  it.each([
    ['Random Barter', 'No random items available'],
    ['Everything', 'No items in your area'],
  ])('%s has its empty state with Add Your First Item while the member offers nothing', async (tab, text) => {
    steps = { area: true, want: false, item: false, completed: true };
    stubFeed({});
    renderFeed();
    await userEvent.click(screen.getByRole('tab', { name: tab }));
    expect(await screen.findByRole('heading', { name: text })).toBeInTheDocument();
    expect(
      screen.getByText('Try a larger distance, or be the first to offer something nearby.'),
    ).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Add Your First Item' }));
    expect(await screen.findByRole('dialog', { name: 'Add New Item' })).toBeInTheDocument();
  });

  it('an empty feed of a member who offers something asks for another item, not a first one', async () => {
    steps = { area: true, want: true, item: true, completed: true };
    stubFeed({});
    renderFeed();
    await userEvent.click(screen.getByRole('tab', { name: 'Everything' }));
    expect(await screen.findByRole('button', { name: 'Add an Item' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Your First Item' })).not.toBeInTheDocument();
  });

  it('an empty Barter Match says it comes from wants, and its button adds one', async () => {
    steps = { area: true, want: false, item: true, completed: true };
    stubFeed({});
    renderFeed();
    expect(await screen.findByRole('heading', { name: 'No matches found' })).toBeInTheDocument();
    expect(screen.getByText(/Add what you are looking for to your Want List/)).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Add a Want' }));
    expect(await screen.findByRole('dialog', { name: 'Add to Want List' })).toBeInTheDocument();
  });

  it('without a location, an empty feed links to setting one', async () => {
    steps = { area: false, want: false, item: false, completed: false };
    stubFeed({});
    renderFeed();
    expect(await screen.findByRole('heading', { name: 'No matches found' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Set Location' })).toHaveAttribute('href', '/profile');
    expect(screen.queryByRole('button', { name: /Add/ })).not.toBeInTheDocument();
  });

  it('shows the safety tip 3 seconds after load (once a day: safety-tip.test.tsx)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(
      http.get('/api/auth/user', () => HttpResponse.json({ id: 'u7', firstName: 'Maya', lastName: 'O' })),
      gettingStarted(),
      feedPages({}),
    );
    renderFeed();
    expect(screen.queryByText(/Always meet in public places/)).not.toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(3000);
    expect(
      await screen.findByText(
        'Always meet in public places and trust your instincts when bartering with others.',
      ),
    ).toBeInTheDocument();
  });

  it('save flips after success with the spec toast, then unsave', async () => {
    server.use(
      signedOut(),
      gettingStarted(),
      feedPages({ 0: [feedItem(7)] }),
      http.post('/api/saved-items/7', () => HttpResponse.json({ saved: true })),
      http.delete('/api/saved-items/7', () => new HttpResponse(null, { status: 204 })),
    );
    const api = recordRequests();
    renderFeed();
    const save = await screen.findByRole('button', { name: 'Save Item 7' });
    expect(save).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(save);
    expect(await screen.findByText('Item added to your saved list')).toBeInTheDocument();
    const unsave = await screen.findByRole('button', { name: 'Unsave Item 7' });
    expect(unsave).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(unsave);
    expect(await screen.findByText('Item removed from your saved list')).toBeInTheDocument();
    expect(
      api.sent
        .filter((request) => request.path.startsWith('/api/saved-items'))
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['POST /api/saved-items/7', 'DELETE /api/saved-items/7']);
  });

  it('a failed save keeps the state and says so', async () => {
    server.use(
      signedOut(),
      gettingStarted(),
      feedPages({ 0: [feedItem(8)] }),
      http.post('/api/saved-items/8', () => errorJson(500, 'x', 'X')),
    );
    renderFeed();
    await userEvent.click(await screen.findByRole('button', { name: 'Save Item 8' }));
    expect(await screen.findByText('Failed to save item. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Item 8' })).toHaveAttribute('aria-pressed', 'false');
  });
});
