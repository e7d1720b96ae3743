import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { ProfileInput } from '#common/schemas/profile.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { authKeys, feedKeys, gettingStartedKeys, placeKeys } from '#web/lib/query-keys.ts';

/** PUT /api/user/profile: location, coordinates and max travel distance; answers with the current user. */
export async function updateProfile(input: ProfileInput): Promise<CurrentUser> {
  const response = await apiRequest('PUT', '/api/user/profile', input);
  return (await response.json()) as CurrentUser;
}

/**
 * Save the profile form; on success the current user is refetched (spec section 7), so the header
 * and the form show the saved values. The mutation stays pending until that refetch is done.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: authKeys.user }),
        queryClient.invalidateQueries({ queryKey: gettingStartedKeys.all }),
        // Distances and what is within reach moved with the location.
        queryClient.invalidateQueries({ queryKey: feedKeys.all }),
        // Place suggestions are ranked near the member's area (ADR 057): the old area's order goes.
        queryClient.removeQueries({ queryKey: placeKeys.searches }),
      ]),
  });
}
