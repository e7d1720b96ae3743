import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ItemDetail } from '#common/schemas/feed.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { ItemView } from './item-page';

const SITE: SiteInfo = {
  publicUrl: 'https://barterhood.example',
  supportEmail: 'support@barterhood.example',
  legalEmail: 'legal@barterhood.example',
  licensingEmail: 'licensing@barterhood.example',
  demoLogin: false,
  googleSignIn: false,
  mapTiles: null,
};

function detail(overrides: Partial<ItemDetail> = {}): ItemDetail {
  return {
    id: 42,
    title: 'Cordless drill',
    description: 'Two batteries and a charger.',
    category: 'tools',
    isService: false,
    imageUrl: '/photos/drill.webp',
    thumbnailUrl: '/photos/drill-thumb.webp',
    estimatedValue: 50,
    createdAt: '2026-01-01T00:00:00.000Z',
    isSaved: false,
    user: { id: 'm1', firstName: 'Ann', lastName: 'R.', profileImageUrl: null },
    distanceMiles: null,
    owner: { rating: 4.8, completedTrades: 12, handOvers: { kept: 0, due: 0 } },
    lookingFor: ['Canoe'],
    openBarter: null,
    isOwn: false,
    isActive: true,
    approximateArea: { latitude: 45.52, longitude: -122.68, radiusMeters: 2500, name: 'Portland, Oregon' },
    ...overrides,
  } as ItemDetail;
}

/** The public read (signed out) and the member's read (signed in) of item 42; anything else 404. */
function stubItem(visitor: ItemDetail | null, member: ItemDetail | null = visitor) {
  server.use(
    http.get('/api/site', () => HttpResponse.json(SITE)),
    http.get('/api/public/items/:id', ({ params }) =>
      visitor && Number(params.id) === visitor.id
        ? HttpResponse.json(visitor)
        : errorJson(404, 'This item is no longer available.', 'NOT_FOUND'),
    ),
    http.get('/api/items/:id', ({ params }) =>
      member && Number(params.id) === member.id
        ? HttpResponse.json(member)
        : errorJson(404, 'Item not found.', 'NOT_FOUND'),
    ),
  );
}

/** Gives this test's navigator a share sheet and a clipboard (or none), taken back after it. */
function stubNavigator(values: { share?: unknown; clipboard?: unknown }) {
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(navigator, key, { value, configurable: true, writable: true });
  }
}

afterEach(() => {
  for (const key of ['share', 'clipboard']) Reflect.deleteProperty(navigator, key);
});

describe('the item page', () => {
  it('shows a visitor signed out the item, its area in words, and a sign-in that comes back', async () => {
    stubItem(detail());
    const requests = recordRequests();
    renderWithProviders(<ItemView id={42} signedIn={false} />, { path: '/items/42' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cordless drill' })).toBeVisible();
    expect(screen.getByText('Two batteries and a charger.')).toBeVisible();
    expect(screen.getByText(/Portland, Oregon/)).toBeVisible();
    // No distance line for a visitor, no member link, no Propose Barter.
    expect(screen.queryByText('Set your location to see the distance')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Ann R.' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Propose Barter/ })).toBeNull();
    const signIn = screen.getByRole('link', { name: 'Sign in to propose' });
    expect(signIn.getAttribute('href')).toBe(`/login?next=${encodeURIComponent('/items/42')}`);
    // Only the public read: the member's detail is never asked signed out.
    expect(requests.to('GET /api/items/42')).toHaveLength(0);
    expect(requests.to('GET /api/public/items/42')).toHaveLength(1);
  });

  it('offers a member Propose Barter and Save on the item of someone else', async () => {
    stubItem(null, detail({ distanceMiles: 1.2 }));
    renderWithProviders(<ItemView id={42} signedIn />, { path: '/items/42' });
    expect(await screen.findByRole('button', { name: /Propose Barter/ })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Save Cordless drill' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ann R.' })).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Sign in to propose' })).toBeNull();
  });

  it('gives the owner their own controls instead of Propose Barter', async () => {
    stubItem(null, detail({ isOwn: true }));
    renderWithProviders(<ItemView id={42} signedIn />, { path: '/items/42' });
    const edit = await screen.findByRole('link', { name: 'Edit in My Items' });
    expect(edit.getAttribute('href')).toBe('/profile?tab=items');
    expect(screen.getByText('This is your listing.')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Propose Barter/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Report/ })).toBeNull();
  });

  it('says an item is no longer available when the server has none to show', async () => {
    stubItem(null);
    renderWithProviders(<ItemView id={42} signedIn={false} />, { path: '/items/42' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This item is no longer available' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'See what neighbors offer' }).getAttribute('href')).toBe('/');
  });

  it('says a failed read is a failure, with Try again, not that the item is gone', async () => {
    server.use(
      http.get('/api/site', () => HttpResponse.json(SITE)),
      http.get('/api/public/items/:id', () => errorJson(503, 'Busy.', 'SERVICE_UNAVAILABLE')),
    );
    renderWithProviders(<ItemView id={42} signedIn={false} />, { path: '/items/42' });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeVisible();
    expect(screen.queryByText('This item is no longer available')).toBeNull();
  });

  it("shares through the phone's share sheet where there is one", async () => {
    stubItem(detail());
    const share = vi.fn().mockResolvedValue(undefined);
    stubNavigator({ share });
    renderWithProviders(<ItemView id={42} signedIn={false} />, { path: '/items/42' });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith({
      title: 'Cordless drill',
      url: `${window.location.origin}/items/42`,
    });
  });

  it('copies the link, with a toast, where there is no share sheet', async () => {
    stubItem(detail());
    const writeText = vi.fn().mockResolvedValue(undefined);
    stubNavigator({ share: undefined, clipboard: { writeText } });
    renderWithProviders(<ItemView id={42} signedIn={false} />, { path: '/items/42' });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Link copied')).toBeVisible();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/items/42`);
  });

  it('shows the link to copy by hand when the clipboard refuses', async () => {
    stubItem(detail());
    const writeText = vi.fn().mockRejectedValue(new Error('denied'));
    stubNavigator({ share: undefined, clipboard: { writeText } });
    renderWithProviders(<ItemView id={42} signedIn={false} />, { path: '/items/42' });
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Copy this link to share it')).toBeVisible();
    expect(screen.getByText(`${window.location.origin}/items/42`)).toBeVisible();
  });
});
