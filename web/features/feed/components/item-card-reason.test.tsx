import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FeedItem, MatchReason } from '#common/schemas/feed.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ItemCard } from './item-card';

const item = (reason?: MatchReason): FeedItem => ({
  id: 3,
  title: 'Mountain bicycle, red',
  description: 'Rides well.',
  category: 'bikes',
  isService: false,
  imageUrl: null,
  thumbnailUrl: null,
  condition: null,
  estimatedValue: null,
  createdAt: new Date().toISOString(),
  isSaved: false,
  user: { id: 'u1', firstName: 'Ann', lastName: 'A.', profileImageUrl: null },
  distanceMiles: 1,
  owner: { rating: null, completedTrades: 0, handOvers: { kept: 0, due: 0 } },
  lookingFor: [],
  match: { score: 40, wantId: 1, wantTitle: 'Mountain bike', mutual: false, ...(reason ? { reason } : {}) },
});

const show = (reason?: MatchReason) =>
  renderWithProviders(<ItemCard item={item(reason)} showMatch onOpen={() => {}} />);

describe("the card's reason (ADR 089)", () => {
  it.each<[MatchReason, string]>([
    [{ kind: 'title', words: [], related: [] }, 'The title is what you want'],
    [{ kind: 'all-words', words: ['Mountain', 'bike'], related: [] }, 'In the title: Mountain, bike'],
    [
      { kind: 'related', words: ['Mountain'], related: ['bicycle'] },
      'In the title: Mountain · Related word in the title: bicycle',
    ],
    [{ kind: 'some-words', words: ['bike'], related: [] }, 'In the title: bike'],
    [{ kind: 'elsewhere', words: ['Mountain', 'bike'], related: [] }, 'In the description: Mountain, bike'],
    [{ kind: 'near-spelling', words: [], related: [] }, 'A title spelt like your want'],
    [{ kind: 'category', words: [], related: [] }, 'Same category'],
  ])('names what matched: %j', async (reason, text) => {
    show(reason);
    expect(screen.getByText('Matches your want: Mountain bike')).toBeInTheDocument();
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('says only the want when the server sends no reason', () => {
    show();
    expect(screen.getByText('Matches your want: Mountain bike').closest('ul')?.children).toHaveLength(1);
  });
});
