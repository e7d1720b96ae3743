import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../../common/schemas/auth';
import type { TradeStats } from '../../../../common/schemas/trades';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
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

function stubStats(stats: TradeStats) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    if (String(input) === '/api/users/u1/trade-stats') return jsonResponse(stats);
    throw new Error(`Unexpected request ${String(input)}`);
  });
  vi.stubGlobal('fetch', fetchMock);
}

afterEach(() => vi.unstubAllGlobals());

describe('ProfileHeader', () => {
  it('shows name, location, the real rating and trade count, and Trusted Trader once earned', async () => {
    stubStats({ totalTrades: 12, rating: 5, thisMonth: 3 });
    renderWithProviders(<ProfileHeader user={USER} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Rosa Parks' })).toBeInTheDocument();
    expect(screen.getByText('Portland, Oregon, United States')).toBeInTheDocument();
    expect(await screen.findByText('5.0 (12 trades)')).toBeInTheDocument();
    expect(screen.getByText('Trusted Trader')).toBeInTheDocument();
  });

  it('leaves the badge out until it is earned', async () => {
    stubStats({ totalTrades: 2, rating: 5, thisMonth: 2 });
    renderWithProviders(<ProfileHeader user={USER} />);
    expect(await screen.findByText('5.0 (2 trades)')).toBeInTheDocument();
    expect(screen.queryByText('Trusted Trader')).not.toBeInTheDocument();
  });

  it('says New trader with no completed trades, and when no location is set', async () => {
    stubStats({ totalTrades: 0, rating: null, thisMonth: 0 });
    renderWithProviders(<ProfileHeader user={{ ...USER, location: null }} />);
    expect(await screen.findByText('New trader')).toBeInTheDocument();
    expect(screen.getByText('No location set')).toBeInTheDocument();
    expect(screen.queryByText('Trusted Trader')).not.toBeInTheDocument();
  });
});
