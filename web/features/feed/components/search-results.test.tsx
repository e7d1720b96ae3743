import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { AddItemProvider } from '#web/components/feature-slots.tsx';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { SearchBox } from './search-box';
import { SearchResults } from './search-results';

function feedItem(id: number, title: string): FeedItem {
  return {
    id,
    title,
    description: `About ${title}`,
    category: 'services',
    isService: true,
    imageUrl: null,
    thumbnailUrl: null,
    condition: null,
    estimatedValue: 20,
    createdAt: new Date().toISOString(),
    isSaved: false,
    user: { id: 'u1', firstName: 'Maya', lastName: 'O.', profileImageUrl: null },
    distanceMiles: 1.2,
    owner: { rating: null, completedTrades: 0, handOvers: { kept: 0, due: 0 } },
    lookingFor: [],
  };
}

/** Everything's pages (one), the correction, and nobody signed in for the safety tip. */
function stub(items: FeedItem[], showingFor: string | null = null) {
  server.use(
    http.get('/api/auth/user', () => errorJson(401, 'Please sign in.', 'UNAUTHORIZED')),
    http.get('/api/account/getting-started', () =>
      HttpResponse.json({ area: true, want: true, item: true, completed: true }),
    ),
    http.get('/api/feed/everything', () => HttpResponse.json(items)),
    http.get('/api/search/showing-for', () => HttpResponse.json({ showingFor })),
    http.post('/api/saved-searches', async ({ request }) =>
      HttpResponse.json(
        { id: 1, createdAt: new Date().toISOString(), ...((await request.json()) as object) },
        { status: 201 },
      ),
    ),
  );
  const api = recordRequests();
  return {
    feedParams: () =>
      api.sent
        .filter((request) => request.path === '/api/feed/everything')
        .map((request) => new URL(request.url, 'http://x').searchParams),
    api,
  };
}

const renderResults = (q: string) =>
  renderWithProviders(
    <AddItemProvider>
      <SearchResults q={q} />
    </AddItemProvider>,
    { path: `/search?q=${encodeURIComponent(q)}` },
  );

describe('the search results (ADR 089)', () => {
  it('lists everything the text finds within the distance, with the corrected text', async () => {
    const { feedParams } = stub([feedItem(7, 'Bike tune-up')], 'bike tune-up');
    renderResults('bike tunup');
    expect(screen.getByRole('heading', { level: 1, name: 'Results for “bike tunup”' })).toBeInTheDocument();
    const results = screen.getByRole('region', { name: 'Search results' });
    expect(await within(results).findByRole('heading', { name: 'Bike tune-up' })).toBeInTheDocument();
    expect(await screen.findByText('bike tune-up')).toBeInTheDocument();
    expect(screen.getByText(/Showing results for/)).toHaveTextContent('Showing results for bike tune-up');
    const [params] = feedParams();
    expect(params?.get('q')).toBe('bike tunup');
    expect(params?.get('radius')).toBe('25');
    expect(params?.get('sort')).toBe('recent');
    expect(params?.has('condition')).toBe(false);
  });

  it("asks again with the feeds' filters, and saves them with the text", async () => {
    const { feedParams, api } = stub([feedItem(7, 'Road bike')]);
    const user = userEvent.setup();
    renderResults('road bike');
    await screen.findByRole('heading', { name: 'Road bike' });
    // No correction: nothing said about it.
    expect(screen.queryByText(/Showing results for/)).not.toBeInTheDocument();
    // Match Score is Barter Match's order, not offered here.
    const sort = screen.getByLabelText('Sort by');
    expect(within(sort).queryByRole('option', { name: 'Match Score' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Distance'), '10');
    await user.selectOptions(screen.getByLabelText('Condition'), 'like-new');
    await user.selectOptions(sort, 'value');
    await waitFor(() =>
      expect(feedParams().at(-1)?.toString()).toBe(
        'limit=20&offset=0&radius=10&sort=value&q=road+bike&condition=like-new',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('road bike');
    await user.click(within(dialog).getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await api.bodiesOf('POST /api/saved-searches')).toEqual([
      { name: 'road bike', feed: 'everything', q: 'road bike', radius: 10, condition: 'like-new' },
    ]);
  });

  it('without text lists everything near, and saves the filters alone', async () => {
    const { feedParams, api } = stub([feedItem(8, 'Lamp')]);
    const user = userEvent.setup();
    renderResults('');
    expect(screen.getByRole('heading', { level: 1, name: 'Everything near you' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Lamp' });
    expect(feedParams()[0]?.has('q')).toBe(false);
    // No text, no correction asked for.
    expect(api.to('GET /api/search/showing-for')).toHaveLength(0);
    await user.selectOptions(screen.getByLabelText('Condition'), 'good');
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Everything within 25 miles');
    await user.click(within(dialog).getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await api.bodiesOf('POST /api/saved-searches')).toEqual([
      { name: 'Everything within 25 miles', feed: 'everything', q: null, radius: 25, condition: 'good' },
    ]);
  });

  it('says when nothing is found', async () => {
    stub([]);
    renderResults('zzyzx');
    expect(await screen.findByRole('heading', { name: 'No results for “zzyzx”' })).toBeInTheDocument();
    expect(screen.getByText('Try other words, or a larger distance.')).toBeInTheDocument();
  });

  it('the search box leads to the results from any screen, by keyboard', async () => {
    const user = userEvent.setup();
    const { location } = renderWithProviders(<SearchBox id="header-search" />, { path: '/barters' });
    await user.type(
      screen.getByRole('searchbox', { name: 'Search items or services' }),
      '  bike tunup {Enter}',
    );
    expect(location.history.at(-1)).toBe('/search?q=bike%20tunup');
  });
});
