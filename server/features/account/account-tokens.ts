import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type AccountTokenKind, type AccountTokenRow, accountTokens } from '../../db/schema/account';

/** How long a link stays good. */
export const TOKEN_LIFETIME_MS: Record<AccountTokenKind, number> = {
  'password-reset': 30 * 60_000,
  'verify-email': 7 * 24 * 60 * 60_000,
};

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A new single-use token for the member (256 random bits, 43 characters); only its hash is stored. */
export async function issueToken(
  db: Db,
  userId: string,
  kind: AccountTokenKind,
  email: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(accountTokens).values({
    userId,
    kind,
    email,
    tokenHash: hashOf(token),
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[kind]),
  });
  return token;
}

/** A token's row while it can still be used (unknown, of another kind, used or expired: null); not used up. */
export async function findToken(
  db: Db,
  token: string,
  kind: AccountTokenKind,
): Promise<AccountTokenRow | null> {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashOf(token)),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    );
  return row ?? null;
}

/**
 * Use a token: marks it used and returns its row, in one statement, so two requests racing with the
 * same link cannot both succeed. Null when unknown, of another kind, used or expired.
 */
export async function consumeToken(
  db: Db,
  token: string,
  kind: AccountTokenKind,
): Promise<AccountTokenRow | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, hashOf(token)),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning();
  return row ?? null;
}

/** Retire a member's unused tokens of a kind (after a reset, every other reset link dies too). */
export async function retireTokens(db: Db, userId: string, kind: AccountTokenKind): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt)));
}

/** When the member was last sent a token of this kind (for the per-account limit), or null. */
export async function lastIssuedAt(db: Db, userId: string, kind: AccountTokenKind): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: accountTokens.createdAt })
    .from(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind)))
    .orderBy(desc(accountTokens.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}
