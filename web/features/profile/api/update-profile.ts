import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../common/schemas/auth';
import type { ProfileInput } from '../../../../common/schemas/profile';
import { apiRequest } from '../../../lib/api-client';
import { authKeys } from '../../auth/api/get-user';

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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.user }),
  });
}
