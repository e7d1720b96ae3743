import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../../features/notifications/live-events';
import { userQuery, useUser } from '../../lib/get-user';

/**
 * The page's live updates (issue 13) while signed in. When the stream is refused, the current user is
 * read again: signed out elsewhere, the app turns to its signed-out screens and the stream stays shut.
 * The member layout loads it beside the first screen rather than before it: the stream's contract
 * (zod schemas) is not needed to paint (ADR 033).
 */
export default function MemberLiveEvents(): null {
  const { isAuthenticated } = useUser();
  const queryClient = useQueryClient();
  useLiveEvents(isAuthenticated, () =>
    queryClient.fetchQuery({ ...userQuery(), staleTime: 0 }).then(
      (user) => user !== null,
      () => true,
    ),
  );
  return null;
}
