import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ItemDetail } from '#common/schemas/feed.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { ItemDetailContent } from './item-detail-content';

const photo = (name: string) => ({ imageUrl: `/photos/${name}.jpg`, thumbnailUrl: `/photos/${name}.webp` });

const bike: ItemDetail = {
  id: 9,
  title: 'Road bike',
  description: 'Steel frame.',
  category: 'bikes',
  isService: false,
  imageUrl: '/photos/c.jpg',
  thumbnailUrl: '/photos/c.webp',
  photos: [photo('c'), photo('a'), photo('b')],
  condition: 'like-new',
  estimatedValue: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  isSaved: false,
  user: { id: 'm1', firstName: 'Ann', lastName: 'R.', profileImageUrl: null },
  distanceMiles: null,
  owner: { rating: null, completedTrades: 0, handOvers: { kept: 0, due: 0 } },
  lookingFor: [],
  openBarter: null,
  isOwn: false,
  isActive: true,
  approximateArea: null,
};

describe('ItemDetailContent: photos and condition (ADR 082)', () => {
  it('shows every photo in the gallery, the cover first, and the condition', async () => {
    renderWithProviders(<ItemDetailContent item={bike} signedIn={false} />);
    expect(screen.getByText('Condition: Like new')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Road bike, photo 1 of 3' })).toHaveAttribute(
      'src',
      '/photos/c.jpg',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(screen.getByRole('img', { name: 'Road bike, photo 2 of 3' })).toHaveAttribute(
      'src',
      '/photos/a.jpg',
    );
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 2 of 3');
  });

  it('shows the cover alone when the answer has no list, and no condition for a service', () => {
    renderWithProviders(
      <ItemDetailContent
        item={{ ...bike, photos: undefined, condition: null, isService: true }}
        signedIn={false}
      />,
    );
    expect(screen.getByRole('img', { name: 'Road bike' })).toHaveAttribute('src', '/photos/c.jpg');
    expect(screen.queryByText(/Condition:/)).not.toBeInTheDocument();
  });
});
