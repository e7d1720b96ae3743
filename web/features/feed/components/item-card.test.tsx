import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedItem } from '../../../../common/schemas/feed';
import { activateLocale } from '../../../i18n/i18n';
import { renderWithProviders } from '../../../testing/render';
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
  owner: { rating: null, completedTrades: 0 },
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
