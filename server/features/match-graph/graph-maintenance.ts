import { type SQL, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { intArray, uuidArray } from '../../db/arrays';
import type { Db } from '../../db/client';
import { queryPrepared } from '../../db/prepared';
import { queryRows } from '../../db/rows';
import { dropCached, onCacheNotice } from '../../lib/cache-bus';
import { markCircleChanges } from '../circles';
import { buildMemberSql, insertItemsSql, refreshMutualSql } from './graph-sql';

/** Changes taken per transaction at most; a backlog (a bulk import) is worked off batch by batch. */
export const CHANGES_BATCH = 1_000;
/**
 * How long one drain transaction should hold the database (ADR 100). On the embedded database a
 * transaction has its one connection to itself, and a member's costly request waits at most 500 ms
 * for it before it is shed: the batch is sized so that background work keeps well inside that.
 */
export const DRAIN_TARGET_MS = 100;
/** The batch size the next drain in this process starts with: the last one that kept to the target. */
let pacedBatch = 64;

/**
 * The next batch's size, from the last one's: halved (or cut in proportion, if worse) when it held
 * the database past the target, doubled when a full batch took under half of it; 1 to `max`.
 */
export function nextBatchSize(size: number, elapsedMs: number, full: boolean, max: number): number {
  if (elapsedMs > DRAIN_TARGET_MS) {
    const cut = Math.floor((size * DRAIN_TARGET_MS) / elapsedMs);
    return Math.max(1, Math.min(Math.floor(size / 2), cut));
  }
  if (full && elapsedMs < DRAIN_TARGET_MS / 2) return Math.min(max, size * 2);
  return Math.min(max, size);
}
/** A graph nobody has read for this long is dropped (built again when its member comes back). */
export const GRAPH_IDLE_DAYS = 30;

/**
 * The advisory lock each drain transaction holds. Without it, a drain could take the change of an
 * item listed while another drain was building a member's graph (after the build read the items)
 * and, not seeing that graph yet, add the item to nothing; the build then committed without it.
 */
const DRAIN_LOCK = 'match-graph-drain';

interface Change {
  kind: 'item' | 'wants' | 'member' | 'build';
  item_id: number | null;
  member_id: string | null;
}

/**
 * Bring the match graph up to date with every change logged so far (ADR 022): a batch of changes
 * per transaction, deleted in the same transaction, so a failure leaves them for the retry. One
 * batch at a time across processes (DRAIN_LOCK): a change logged after a batch read the tables
 * stays in the log, and the batch that takes it must see the graphs the earlier one wrote. Batches
 * are paced by time (`nextBatchSize`), up to `batch` changes each. Idempotent. How many changes were
 * applied.
 */
export async function drainMatchGraph(db: Db, batch = CHANGES_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const size = Math.min(batch, pacedBatch);
    // From the transaction's start (not the wait for a connection) to its commit.
    let began = 0;
    const applied = await db.transaction(async (tx) => {
      began = performance.now();
      // First, so the batch's statements (READ COMMITTED) see what the drain before it committed.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${DRAIN_LOCK}))`);
      const changes = await queryRows<Change>(
        tx as unknown as Db,
        sql`DELETE FROM match_graph_changes WHERE id IN (
              SELECT id FROM match_graph_changes ORDER BY id LIMIT ${size}::int FOR UPDATE SKIP LOCKED)
            RETURNING kind, item_id, member_id::text AS member_id`,
      );
      if (changes.length > 0) await applyChanges(tx as unknown as Db, changes);
      return changes.length;
    });
    total += applied;
    const held = performance.now() - began;
    // A partial batch that kept to the target says nothing of what a full one costs: the pace stays.
    if (applied === size || held > DRAIN_TARGET_MS)
      pacedBatch = nextBatchSize(size, held, applied === size, CHANGES_BATCH);
    if (applied < size) return total;
  }
}

/**
 * Bring these items' rows of the graph up to date now, inside the caller's transaction: out of every
 * graph, then back into the graphs they match (if listed), and their owners' reciprocity. A heal of an
 * accepted circle (ADR 081) releases its items and looks for a circle among them in the same
 * transaction, before the drain has seen the release. Their changes stay logged: the drain applies
 * them again after commit (idempotent), with everything else a change does (the finder, rankings).
 */
export async function relistItemsNow(db: Db, itemIds: readonly number[]): Promise<void> {
  if (itemIds.length === 0) return;
  const ids = sql`${intArray(itemIds)}::int[]`;
  await db.execute(sql`DELETE FROM match_graph WHERE item_id = ANY(${ids})`);
  await db.execute(insertItemsSql(itemIds));
  const owners = await queryRows<{ id: string }>(
    db,
    sql`SELECT DISTINCT user_id::text AS id FROM items WHERE id = ANY(${ids})`,
  );
  if (owners.length > 0) {
    const ownerIds = sql`${uuidArray(owners.map((owner) => owner.id))}::uuid[]`;
    await db.execute(refreshMutualSql(sql`g.member_id = ANY(${ownerIds})`));
  }
}

const membersOf = (changes: Change[], kinds: Change['kind'][]) => [
  ...new Set(changes.filter((c) => kinds.includes(c.kind) && c.member_id).map((c) => c.member_id as string)),
];

async function applyChanges(db: Db, changes: Change[]): Promise<void> {
  const wantsChanged = membersOf(changes, ['wants']);
  const itemOwners = membersOf(changes, ['item']);
  const itemIds = [
    ...new Set(changes.filter((c) => c.kind === 'item' && c.item_id).map((c) => c.item_id as number)),
  ];

  // Members whose own side changed (their wants, their point, or a first build): built again whole,
  // measured from their public point (ADR 059).
  const asked = membersOf(changes, ['wants', 'member', 'build']);
  const rebuilt = asked.length
    ? await queryRows<{ id: string; latitude: number | null; longitude: number | null }>(
        db,
        sql`SELECT u.id::text AS id, u.public_latitude::float8 AS latitude, u.public_longitude::float8 AS longitude
            FROM match_graph_members gm JOIN users u ON u.id = gm.member_id
            WHERE gm.member_id = ANY(${uuidArray(asked)}::uuid[])`,
      )
    : [];
  for (const member of rebuilt) {
    await db.execute(sql`DELETE FROM match_graph WHERE member_id = ${member.id}::uuid`);
    const origin =
      member.latitude !== null && member.longitude !== null
        ? { latitude: member.latitude, longitude: member.longitude }
        : null;
    await db.execute(buildMemberSql(member.id, origin));
    await db.execute(
      sql`UPDATE match_graph_members SET built_at = now() WHERE member_id = ${member.id}::uuid`,
    );
  }
  const others = sql`${uuidArray(rebuilt.map((m) => m.id))}::uuid[]`;
  // Rows of other members' graphs written below (a rebuilt graph counts as changed).
  let written = rebuilt.length;
  const run = async (statement: SQL) => {
    written += affectedRows(await db.execute(statement));
  };

  // Items written: out of every graph, then back into the graphs they match now (if still listed).
  if (itemIds.length > 0) {
    await run(
      sql`DELETE FROM match_graph WHERE item_id = ANY(${intArray(itemIds)}::int[]) AND member_id <> ALL(${others})`,
    );
    await run(insertItemsSql(itemIds));
  }
  // Reciprocity: an owner's wants changed (their items in others' graphs), or a member's items
  // changed (what they offer, across their own graph).
  if (wantsChanged.length > 0) {
    await run(
      refreshMutualSql(
        sql`g.item_user_id = ANY(${uuidArray(wantsChanged)}::uuid[]) AND g.member_id <> ALL(${others})`,
      ),
    );
  }
  if (itemOwners.length > 0) {
    await run(
      refreshMutualSql(
        sql`g.member_id = ANY(${uuidArray(itemOwners)}::uuid[]) AND g.member_id <> ALL(${others})`,
      ),
    );
  }
  // Circles through these members may have changed: a member whose wants, point or graph changed
  // (new edges into them) and the owner of each item written (new edges out of them) (ADR 029).
  await markCircleChanges(db, [...asked, ...itemOwners]);
  // Barter Match rankings kept between pages (ADR 012) were read from the graph as it was; when no
  // graph changed (no member's matches moved), kept rankings still stand.
  if (written > 0) await db.execute(sql`UPDATE listing_changes SET version = version + 1 WHERE id = 1`);
}

/** Rows a write statement touched, as either driver reports it. */
function affectedRows(result: unknown): number {
  const counts = result as { rowCount?: number | null; affectedRows?: number };
  return Number(counts.rowCount ?? counts.affectedRows ?? 0);
}

/**
 * Where a member's graph stands: 'built' (pages come from it), 'pending' (asked for, not built
 * yet) or 'none'. Marks it read (at most once a day) so idle graphs can be dropped.
 */
export async function graphState(db: Db, memberId: string): Promise<'built' | 'pending' | 'none'> {
  // A built graph stays built while it is read (only graphs unread for GRAPH_IDLE_DAYS are dropped).
  if (builtGraphs.get(memberId)) return 'built';
  const [row] = await queryPrepared<{ built: boolean; stale: boolean }>(
    db,
    sql`SELECT built_at IS NOT NULL AS built, read_at < now() - interval '1 day' AS stale
        FROM match_graph_members WHERE member_id = ${memberId}::uuid`,
  );
  if (!row) return 'none';
  if (row.stale) {
    await db.execute(sql`UPDATE match_graph_members SET read_at = now() WHERE member_id = ${memberId}::uuid`);
  }
  if (!row.built) return 'pending';
  builtGraphs.set(memberId, true);
  return 'built';
}

/**
 * Members whose graph this process has seen built, for a minute (saves a query per Barter Match page).
 * A graph dropped anywhere leaves it through the cache bus (ADR 040).
 */
const builtGraphs = new LRUCache<string, true>({ max: 10_000, ttl: 60_000 });
onCacheNotice('match-graph', { forget: (id) => builtGraphs.delete(id), clear: () => builtGraphs.clear() });

/** Ask for a member's graph to be built (once; the change wakes the job). */
export async function requestGraph(db: Db, memberId: string): Promise<void> {
  await db.execute(sql`WITH asked AS (
      INSERT INTO match_graph_members (member_id) VALUES (${memberId}::uuid)
      ON CONFLICT (member_id) DO NOTHING RETURNING member_id)
    INSERT INTO match_graph_changes (kind, member_id) SELECT 'build', member_id FROM asked`);
}

/** Drop the graphs nobody has read for GRAPH_IDLE_DAYS; how many members' graphs went. */
export async function dropIdleGraphs(db: Db, idleDays = GRAPH_IDLE_DAYS): Promise<number> {
  return db.transaction(async (tx) => {
    const idle = await queryRows<{ member_id: string }>(
      tx as unknown as Db,
      sql`DELETE FROM match_graph_members WHERE read_at < now() - make_interval(days => ${idleDays}::int)
          RETURNING member_id::text AS member_id`,
    );
    if (idle.length > 0) {
      dropCached(
        'match-graph',
        idle.map((m) => m.member_id),
      );
      await tx.execute(
        sql`DELETE FROM match_graph WHERE member_id = ANY(${uuidArray(idle.map((m) => m.member_id))}::uuid[])`,
      );
    }
    return idle.length;
  });
}

/**
 * Wait until every change logged so far has been applied, by this call or by a drain running
 * elsewhere (rows a running drain holds stay in the log until it commits). For tests and benches
 * that write and then read at once; members get the same state within the job's delay.
 */
export async function settleMatchGraph(db: Db, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await drainMatchGraph(db);
    const [row] = await queryRows<{ pending: boolean }>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM match_graph_changes) AS pending`,
    );
    if (!row?.pending) return;
    if (Date.now() > deadline) throw new Error('the match graph did not settle in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
