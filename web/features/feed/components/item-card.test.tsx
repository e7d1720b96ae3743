import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedItem } from '#common/schemas/feed.ts';
import { activateLocale } from '#web/i18n/i18n.ts';
import { ownItem } from '#web/testing/fixtures/barters.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, server } from '#web/testing/server.ts';
import { ItemCard } from './item-card';

const item: FeedItem = {
  id: 4,
  title: 'Aluminum ladder',
  description: 'Six steps.',
  category: 'tools',
  isService: false,
  imageUrl: '/photos/ladder.webp',
  thumbnailUrl: '/photos/ladder-thumb.webp',
  estimatedValue: 40,
  createdAt: '2026-11-25T10:00:00.000Z',
  isSaved: false,
  distanceMiles: 1.2,
  user: { id: 'u2', firstName: 'Ben', lastName: 'B.', profileImageUrl: null },
  owner: { rating: null, completedTrades: 0, handOvers: { kept: 0, due: 0 } },
  lookingFor: [],
} as FeedItem;

const photo = () => screen.getByRole('article', { name: 'Aluminum ladder' }).querySelector('img');

describe("a feed card's photo", () => {
  it('waits until scrolled near by default', () => {
    renderWithProviders(<ItemCard item={item} showMatch={false} onOpen={() => {}} />);
    expect(photo()).toHaveAttribute('loading', 'lazy');
    expect(photo()).not.toHaveAttribute('fetchpriority');
  });

  it('loads at once above the fold, the first card first (ADR 033)', () => {
    const { unmount } = renderWithProviders(
      <ItemCard item={item} showMatch={false} onOpen={() => {}} eager />,
    );
    expect(photo()).not.toHaveAttribute('loading');
    expect(photo()).not.toHaveAttribute('fetchpriority');
    unmount();
    renderWithProviders(<ItemCard item={item} showMatch={false} onOpen={() => {}} eager="first" />);
    expect(photo()).not.toHaveAttribute('loading');
    expect(photo()).toHaveAttribute('fetchpriority', 'high');
  });
});

describe("a card's placeholder without a photo", () => {
  afterEach(() => activateLocale('en'));
  const bare = { ...item, category: 'appliances', imageUrl: null, thumbnailUrl: null } as FeedItem;

  it('names the category and says No image, in English', () => {
    renderWithProviders(<ItemCard item={bare} showMatch={false} onOpen={() => {}} />);
    const placeholder = screen.getByTestId('listing-placeholder');
    expect(placeholder).toHaveTextContent(/^appliancesNo image$/);
  });

  it('in Spanish names the category from the catalogue, with no English left', async () => {
    await activateLocale('es');
    renderWithProviders(<ItemCard item={bare} showMatch={false} onOpen={() => {}} />);
    const placeholder = screen.getByTestId('listing-placeholder');
    expect(placeholder).toHaveTextContent(/^electrodomésticosSin imagen$/);
    expect(placeholder).not.toHaveTextContent(/appliances|No image/i);
  });
});

describe('a card and the viewer’s barters (issue 28)', () => {
  it('says "You proposed" and leads to that barter instead of a second proposal', () => {
    const proposed = { ...item, openBarter: { id: 55, proposedByYou: true } } as FeedItem;
    renderWithProviders(<ItemCard item={proposed} showMatch={false} onOpen={() => {}} />);
    const card = screen.getByRole('article', { name: 'Aluminum ladder' });
    expect(within(card).getByText('You proposed')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View Barter for Aluminum ladder' })).toHaveAttribute(
      'href',
      '/barters/55',
    );
    expect(within(card).queryByRole('button', { name: 'Propose Barter' })).not.toBeInTheDocument();
  });

  it('says "Proposed to you" when the owner proposed it', () => {
    const offered = { ...item, openBarter: { id: 56, proposedByYou: false } } as FeedItem;
    renderWithProviders(<ItemCard item={offered} showMatch={false} onOpen={() => {}} />);
    expect(screen.getByText('Proposed to you')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View Barter for Aluminum ladder' })).toHaveAttribute(
      'href',
      '/barters/56',
    );
  });

  it('"They want your road bike": Propose Barter opens with the road bike ticked', {
    timeout: 20_000,
  }, async () => {
    server.use(
      http.get('/api/items/my', () =>
        pagedJson([ownItem(1, { title: 'Kettle' }), ownItem(2, { title: 'Road bike' })]),
      ),
      http.get('/api/members/u2/items', () => pagedJson([])),
    );
    const matched = {
      ...item,
      openBarter: null,
      match: {
        score: 80,
        wantId: 9,
        wantTitle: 'Ladder',
        mutual: true,
        theirWantTitle: 'Road bike',
        yourItemId: 2,
      },
    } as FeedItem;
    renderWithProviders(<ItemCard item={matched} showMatch onOpen={() => {}} />);
    expect(screen.getByText('They want Road bike')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Propose Barter' }));
    // The dialog's code loads on the first click (ADR 033): the first load may be slow under load.
    const offer = await screen.findByRole('group', { name: 'You offer' }, { timeout: 15_000 });
    await waitFor(() => expect(within(offer).getByRole('checkbox', { name: 'Road bike' })).toBeChecked());
    expect(within(offer).getByRole('checkbox', { name: 'Kettle' })).not.toBeChecked();
    expect(
      within(screen.getByRole('group', { name: 'You ask for' })).getByRole('checkbox', {
        name: 'Aluminum ladder',
      }),
    ).toBeChecked();
  });
});
