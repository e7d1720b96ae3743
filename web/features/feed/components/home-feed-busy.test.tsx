import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AddItemProvider } from '#web/components/feature-slots.tsx';
import { renderWithProviders } from '#web/testing/render.tsx';
import { busyResponse as busy, server } from '#web/testing/server.ts';
import { HomeFeed } from './home-feed';

// A read answered 503 is asked for once more (ADR 052, web/lib/query-client.ts); twice, the feed says so.

describe('the feed, when the server is busy twice', () => {
  it('says what happened, and Try again loads it', async () => {
    let feedCalls = 0;
    server.use(
      http.get('/api/account/getting-started', () =>
        HttpResponse.json({ area: true, want: false, item: false, completed: true }),
      ),
      // Signed out: the feed's own answers are what the test is about.
      http.get('/api/auth/user', () => HttpResponse.json({ message: 'Not signed in' }, { status: 401 })),
      http.get('/api/feed/barter-match', () =>
        ++feedCalls <= 2 ? busy('0') : HttpResponse.json([{ ...FEED_ITEM, id: 1, title: 'Cordless drill' }]),
      ),
    );
    renderWithProviders(
      <AddItemProvider>
        <HomeFeed />
      </AddItemProvider>,
    );
    expect(await screen.findByText('The feed could not be loaded.')).toBeVisible();
    expect(
      screen.getByText('The service is temporarily unavailable. Please try again shortly.'),
    ).toBeVisible();
    expect(feedCalls).toBe(2);

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Cordless drill' })).toBeVisible();
    expect(feedCalls).toBe(3);
  });
});

const FEED_ITEM = {
  description: 'Barely used',
  category: 'tools',
  isService: false,
  imageUrl: null,
  thumbnailUrl: null,
  estimatedValue: 20,
  createdAt: new Date().toISOString(),
  isSaved: false,
  user: { id: 'u1', firstName: 'Maya', lastName: 'O.', profileImageUrl: null },
  distanceMiles: 1.24,
  owner: { rating: 4.9, completedTrades: 23 },
  lookingFor: [],
  match: null,
};
