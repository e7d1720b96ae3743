import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { messages } from '../../db/schema/trading';

/** How many messages to this member are unread (served by the partial index on unread messages). */
export async function countUnreadMessages(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.toUserId, userId), eq(messages.isRead, false)));
  return row?.n ?? 0;
}
