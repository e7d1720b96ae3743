import type { FastifyInstance } from 'fastify';
import { forgetCachedUser } from '../../plugins/session-cache';
import { deleteUserSessions } from '../../plugins/session-store';

/**
 * End a member's sessions (all, or all but `keepSid`): their rows, this process's cached copies and
 * the event streams they hold, at once.
 */
export async function endSessions(
  app: Pick<FastifyInstance, 'db' | 'eventHub'>,
  userId: string,
  keepSid: string | null = null,
): Promise<number> {
  const ended = await deleteUserSessions(app.db, userId, { keepSid });
  forgetCachedUser(userId);
  for (const sid of ended) app.eventHub.endSession(userId, sid);
  return ended.length;
}
