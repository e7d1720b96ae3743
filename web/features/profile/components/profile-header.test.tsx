import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { TradeStats } from '#common/schemas/trades.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { ProfileHeader } from './profile-header';

const USER: CurrentUser = {
  id: 'u1',
  firstName: 'Rosa',
  lastName: 'Parks',
  email: 'rosa@example.com',
  location: 'Portland, Oregon, United States',
  latitude: 45.5,
  longitude: -122.6,
  maxTravelDistance: 25,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: true,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

/** The member's trade stats, the one request the header makes; anything else fails the test. */
function stubStats(stats: TradeStats) {
  server.use(http.get('/api/users/u1/trade-stats', () => HttpResponse.json(stats)));
}

describe('ProfileHeader', () => {
  it('shows name, location, the real rating and trade count, and Trusted Trader once earned', async () => {
    stubStats({
      totalTrades: 12,
      rating: 5,
      thisMonth: 3,
      tradingPartners: 4,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<ProfileHeader user={USER} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Rosa Parks' })).toBeInTheDocument();
    expect(screen.getByText('Portland, Oregon, United States')).toBeInTheDocument();
    expect(await screen.findByText('5.0 (12 trades)')).toBeInTheDocument();
    expect(screen.getByText('Trusted Trader')).toBeInTheDocument();
  });

  it('leaves the badge out until it is earned', async () => {
    stubStats({
      totalTrades: 2,
      rating: 5,
      thisMonth: 2,
      tradingPartners: 2,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<ProfileHeader user={USER} />);
    expect(await screen.findByText('5.0 (2 trades)')).toBeInTheDocument();
    expect(screen.queryByText('Trusted Trader')).not.toBeInTheDocument();
  });

  it('counts trading partners for the badge, not trades (ADR 074: one swap day is not two trades)', async () => {
    stubStats({
      totalTrades: 6,
      rating: 5,
      thisMonth: 6,
      tradingPartners: 2,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<ProfileHeader user={USER} />);
    expect(await screen.findByText('5.0 (6 trades)')).toBeInTheDocument();
    expect(screen.queryByText('Trusted Trader')).not.toBeInTheDocument();
  });

  it('says New trader with no completed trades, and when no location is set', async () => {
    stubStats({
      totalTrades: 0,
      rating: null,
      thisMonth: 0,
      tradingPartners: 0,
      handOvers: { kept: 0, due: 0 },
    });
    renderWithProviders(<ProfileHeader user={{ ...USER, location: null }} />);
    expect(await screen.findByText('New trader')).toBeInTheDocument();
    expect(screen.getByText('No location set')).toBeInTheDocument();
    expect(screen.queryByText('Trusted Trader')).not.toBeInTheDocument();
  });
});
