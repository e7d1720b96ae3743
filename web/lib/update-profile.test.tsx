import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '#web/lib/query-client.ts';
import { placeKeys } from '#web/lib/query-keys.ts';
import { recordRequests, server } from '#web/testing/server.ts';
import { placeSearchQuery } from './places';
import { useUpdateProfile } from './update-profile';

describe('useUpdateProfile', () => {
  it('forgets place suggestions ranked near the old area once a new location is saved', async () => {
    const portland = [{ name: 'Hawthorne District' }];
    server.use(
      http.get('/api/places/search', () => HttpResponse.json(portland)),
      http.put('/api/user/profile', () => HttpResponse.json({})),
    );
    const api = recordRequests();
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
    expect(api.to('PUT /api/user/profile')).toHaveLength(1);
  });
});
