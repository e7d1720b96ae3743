import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { PhotoGallery } from './photo-gallery';

const PHOTOS = [
  { imageUrl: '/photos/a.webp' },
  { imageUrl: '/photos/b.webp' },
  { imageUrl: '/photos/c.webp' },
];

describe('PhotoGallery', () => {
  it('moves by the arrow keys, Home and End, and says which photo shows', async () => {
    renderWithProviders(<PhotoGallery photos={PHOTOS} title="Road bike" />);
    const strip = screen.getByRole('region', { name: /Photos of Road bike: Photo 1 of 3/ });
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 1 of 3');
    // Only the photo on show is in the accessibility tree, with its place in the alt text.
    expect(screen.getByRole('img', { name: 'Road bike, photo 1 of 3' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Road bike, photo 2 of 3' })).not.toBeInTheDocument();

    strip.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 2 of 3');
    expect(screen.getByRole('img', { name: 'Road bike, photo 2 of 3' })).toBeInTheDocument();
    await userEvent.keyboard('{End}');
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 3 of 3');
    // Past the last photo stays on it.
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 3 of 3');
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 2 of 3');
    await userEvent.keyboard('{Home}');
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 1 of 3');
    expect(screen.getByTestId('photo-gallery-position')).toHaveAttribute('aria-live', 'polite');
  });

  it('has labelled Previous, Next and dot buttons, disabled at the ends', async () => {
    renderWithProviders(<PhotoGallery photos={PHOTOS} title="Road bike" />);
    const previous = screen.getByRole('button', { name: 'Previous photo' });
    const next = screen.getByRole('button', { name: 'Next photo' });
    expect(previous).toBeDisabled();
    await userEvent.click(next);
    await userEvent.click(next);
    expect(next).toBeDisabled();
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 3 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Show photo 1 of 3' }));
    expect(screen.getByRole('button', { name: 'Show photo 1 of 3' })).toHaveAttribute('aria-current', 'true');
    expect(previous).toBeDisabled();
  });

  it('follows a swipe: the photo the strip settles on is the one announced', () => {
    renderWithProviders(<PhotoGallery photos={PHOTOS} title="Road bike" />);
    const strip = screen.getByTestId('photo-gallery-strip');
    Object.defineProperty(strip, 'clientWidth', { configurable: true, value: 300 });
    strip.scrollLeft = 600;
    fireEvent(strip, new Event('scrollend'));
    expect(screen.getByTestId('photo-gallery-position')).toHaveTextContent('Photo 3 of 3');
  });

  it('draws one photo plainly and none as the No image box', () => {
    const { unmount } = renderWithProviders(<PhotoGallery photos={PHOTOS.slice(0, 1)} title="Road bike" />);
    expect(screen.getByRole('img', { name: 'Road bike' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next photo' })).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<PhotoGallery photos={[]} title="Road bike" />);
    expect(screen.getByText('No image')).toBeInTheDocument();
  });
});
