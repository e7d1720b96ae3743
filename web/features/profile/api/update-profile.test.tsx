import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { stubApi } from '../../../testing/api-stub';
import { jsonResponse } from '../../../testing/render';
import { placeKeys, placeSearchQuery } from './places';
import { useUpdateProfile } from './update-profile';

afterEach(() => vi.unstubAllGlobals());

describe('useUpdateProfile', () => {
  it('forgets place suggestions ranked near the old area once a new location is saved', async () => {
    const portland = [{ name: 'Hawthorne District' }];
    const api = stubApi({
      'GET /api/places/search': () => jsonResponse(portland),
      'PUT /api/user/profile': () => jsonResponse({}),
    });
    const queryClient = createQueryClient();
    await queryClient.fetchQuery(placeSearchQuery('Hawthorne'));
    await queryClient.fetchQuery({ queryKey: placeKeys.reverse(45.5, -122.6), queryFn: () => 'kept' });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useUpdateProfile(), { wrapper });

    await act(() =>
      result.current.mutateAsync({
        location: 'London, England, United Kingdom',
        latitude: 51.5,
        longitude: -0.12,
        maxTravelDistance: 5,
      }),
    );

    await waitFor(() => expect(queryClient.getQueryData(placeKeys.search('Hawthorne'))).toBeUndefined());
    // A reverse look-up names a point, not an order near the member: it stays.
    expect(queryClient.getQueryData(placeKeys.reverse(45.5, -122.6))).toBe('kept');
    expect(api.callsTo('PUT /api/user/profile')).toHaveLength(1);
  });
});
