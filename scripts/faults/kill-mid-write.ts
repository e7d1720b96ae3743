import http from 'node:http';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, openPglite } from '#server/db/client.ts';
import { embeddedDatabaseDir } from '#server/db/embedded.ts';
import { openPostgres } from '#server/db/postgres.ts';
import { queryRows } from '#server/db/rows.ts';
import {
  type Call,
  type DatabaseKind,
  type Fault,
  type Member,
  ms,
  now,
  type Outcome,
  send,
  sleep,
} from './kit';

type Acked = 'pending' | 'accepted' | 'completed' | 'cancelled';

/** What the server acknowledged (a 2xx with its id) before it was killed. */
interface Acks {
  items: number[];
  messages: number[];
  /** Each barter's furthest acknowledged state, and which sides' confirmations were acknowledged. */
  barters: Map<number, { status: Acked; confirmed: Set<'from' | 'to'> }>;
  writes: number;
  /** Writes refused with 503 (shed, not acknowledged). */
  refused: number;
  /** Answers that were neither a success nor the server being gone. */
  unexpected: Outcome[];
}

/**
 * The trade invariants, each a query counting what breaks it among this run's barters and items
 * (ids above the seed's). Their names are what a failure prints.
 */
const INVARIANTS: Record<string, (barters: number, items: number) => ReturnType<typeof sql>> = {
  'an item in two completed trades': (b) => sql`SELECT count(*)::int AS n FROM (
      SELECT bri.item_id FROM barter_request_items bri JOIN barter_requests br ON br.id = bri.barter_request_id
      WHERE br.id > ${b} AND br.status = 'completed' AND bri.item_id IS NOT NULL
      GROUP BY bri.item_id HAVING count(*) > 1) x`,
  'an item in two accepted barters': (b) => sql`SELECT count(*)::int AS n FROM (
      SELECT bri.item_id FROM barter_request_items bri JOIN barter_requests br ON br.id = bri.barter_request_id
      WHERE br.id > ${b} AND br.status = 'accepted' AND bri.item_id IS NOT NULL
      GROUP BY bri.item_id HAVING count(*) > 1) x`,
  'an item reserved by a barter that is not accepted': (_b, i) => sql`SELECT count(*)::int AS n
      FROM items i JOIN barter_requests br ON br.id = i.reserved_by_request_id
      WHERE i.id > ${i} AND br.status <> 'accepted'`,
  'an item reserved by a barter it is not part of': (_b, i) => sql`SELECT count(*)::int AS n FROM items i
      WHERE i.id > ${i} AND i.reserved_by_request_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM barter_request_items bri
        WHERE bri.barter_request_id = i.reserved_by_request_id AND bri.item_id = i.id)`,
  "an accepted barter's item not reserved for it": (b) => sql`SELECT count(*)::int AS n
      FROM barter_request_items bri JOIN barter_requests br ON br.id = bri.barter_request_id
      JOIN items i ON i.id = bri.item_id
      WHERE br.id > ${b} AND br.status = 'accepted' AND br.circle_id IS NULL
        AND i.reserved_by_request_id IS DISTINCT FROM br.id`,
  "a completed trade's item still listed or reserved": (b) => sql`SELECT count(*)::int AS n
      FROM barter_request_items bri JOIN barter_requests br ON br.id = bri.barter_request_id
      JOIN items i ON i.id = bri.item_id
      WHERE br.id > ${b} AND br.status = 'completed' AND (i.is_active OR i.reserved_by_request_id IS NOT NULL)`,
  'a barter in an impossible state': (b) => sql`SELECT count(*)::int AS n FROM barter_requests br
      WHERE br.id > ${b} AND (
        br.status NOT IN ('pending', 'accepted', 'completed', 'declined', 'withdrawn', 'countered', 'cancelled', 'expired')
        OR (br.status = 'completed' AND (br.accepted_at IS NULL OR br.from_confirmed_at IS NULL OR br.to_confirmed_at IS NULL))
        OR (br.status = 'accepted' AND (br.accepted_at IS NULL
            OR (br.from_confirmed_at IS NOT NULL AND br.to_confirmed_at IS NOT NULL)))
        OR (br.status IN ('pending', 'declined', 'withdrawn', 'countered', 'expired')
            AND (br.accepted_at IS NOT NULL OR br.from_confirmed_at IS NOT NULL OR br.to_confirmed_at IS NOT NULL)))`,
  'a proposal without items on both sides': (b) => sql`SELECT count(*)::int AS n FROM barter_requests br
      WHERE br.id > ${b} AND br.circle_id IS NULL AND (
        NOT EXISTS (SELECT 1 FROM barter_request_items x WHERE x.barter_request_id = br.id AND x.side = 'from')
        OR NOT EXISTS (SELECT 1 FROM barter_request_items x WHERE x.barter_request_id = br.id AND x.side = 'to'))`,
};

const ORDER: Record<Acked, number> = { pending: 0, accepted: 1, completed: 2, cancelled: 2 };

/**
 * One pair trading for as long as the server answers: list an item each (and a second one for the
 * giver), propose two barters for the taker's item, talk, accept the first, then complete it (or,
 * every fourth round, cancel it). Stops at the first request the server does not answer.
 */
async function trade(
  base: string,
  [giver, taker]: [Member, Member],
  acks: Acks,
  pair: number,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const call = async (member: Member, kind: string, method: Call['method'], path: string, body?: unknown) => {
    const outcome = await send(
      base,
      { kind, method, path, cookie: member.cookie, body },
      { agent, keepBody: true },
    );
    if (outcome.status === 0) return null;
    acks.writes++;
    // A 503 is the server shedding load: refused, not acknowledged, so the pair stops here.
    if (outcome.status === 503) {
      acks.refused++;
      return null;
    }
    if (outcome.status < 200 || outcome.status >= 300) {
      acks.unexpected.push(outcome);
      return null;
    }
    return outcome.json as { id: number; status?: string };
  };
  const item = async (member: Member, title: string) => {
    const row = await call(member, 'listing', 'POST', '/api/items', {
      title,
      description: 'Listed during the kill -9 fault.',
      category: 'tools',
      estimatedValue: 10,
    });
    if (row) acks.items.push(row.id);
    return row?.id;
  };
  const barter = (id: number, status: Acked, confirmed: Array<'from' | 'to'> = []) => {
    const known = acks.barters.get(id);
    const next = { status, confirmed: new Set([...(known?.confirmed ?? []), ...confirmed]) };
    if (!known || ORDER[status] >= ORDER[known.status]) acks.barters.set(id, next);
  };
  try {
    for (let round = 0; ; round++) {
      const a = await item(giver, `Pair ${pair} round ${round} offer`);
      const b = a && (await item(taker, `Pair ${pair} round ${round} request`));
      const a2 = b && (await item(giver, `Pair ${pair} round ${round} second offer`));
      if (!a || !b || !a2) return;
      const first = await call(giver, 'proposal', 'POST', '/api/barter-requests', {
        offeredItemIds: [a],
        requestedItemIds: [b],
        message: 'A fair swap?',
      });
      if (!first) return;
      barter(first.id, 'pending');
      // A second proposal for the same item: it must lose it when the first is accepted.
      const second = await call(giver, 'proposal', 'POST', '/api/barter-requests', {
        offeredItemIds: [a2],
        requestedItemIds: [b],
      });
      if (!second) return;
      barter(second.id, 'pending');
      const say = async (member: Member, content: string) => {
        const message = await call(member, 'message', 'POST', `/api/barter-requests/${first.id}/messages`, {
          content,
        });
        if (message) acks.messages.push(message.id);
        return message;
      };
      if (!(await say(giver, `Round ${round}: shall we meet at the library?`))) return;
      if (!(await call(taker, 'accept', 'POST', `/api/barter-requests/${first.id}/accept`))) return;
      barter(first.id, 'accepted');
      if (!(await say(taker, 'Accepted, see you there.'))) return;
      if (round % 4 === 3) {
        const reason = { reason: 'Something came up, sorry.' };
        if (!(await call(giver, 'cancel', 'POST', `/api/barter-requests/${first.id}/cancel`, reason))) return;
        barter(first.id, 'cancelled');
        continue;
      }
      if (!(await call(giver, 'confirm', 'POST', `/api/barter-requests/${first.id}/confirm`))) return;
      barter(first.id, 'accepted', ['from']);
      if (!(await call(taker, 'confirm', 'POST', `/api/barter-requests/${first.id}/confirm`))) return;
      barter(first.id, 'completed', ['from', 'to']);
    }
  } finally {
    agent.destroy();
  }
}

/** Every acknowledged write present and every invariant holding, in the database itself. */
async function verify(handle: DatabaseHandle, acks: Acks, seeded: { items: number; barters: number }) {
  const failures: string[] = [];
  const { db } = handle;
  const ids = (values: number[]) => `{${values.join(',')}}`;
  const presentItems = await queryRows<{ id: number }>(
    db,
    sql`SELECT id FROM items WHERE id = ANY(${ids(acks.items)}::int[])`,
  );
  const missingItems = acks.items.length - presentItems.length;
  if (missingItems) failures.push(`${missingItems} acknowledged listings missing`);
  const presentMessages = await queryRows<{ id: number }>(
    db,
    sql`SELECT id FROM messages WHERE id = ANY(${ids(acks.messages)}::int[])`,
  );
  const missingMessages = acks.messages.length - presentMessages.length;
  if (missingMessages) failures.push(`${missingMessages} acknowledged messages missing`);
  const rows = await queryRows<{ id: number; status: string; from_ok: boolean; to_ok: boolean }>(
    db,
    sql`SELECT id, status, from_confirmed_at IS NOT NULL AS from_ok, to_confirmed_at IS NOT NULL AS to_ok
        FROM barter_requests WHERE id = ANY(${ids([...acks.barters.keys()])}::int[])`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  let lost = 0;
  for (const [id, ack] of acks.barters) {
    const row = byId.get(id);
    const fine =
      row &&
      (ack.status === 'pending' ||
        (ack.status === 'accepted' && ['accepted', 'completed', 'cancelled'].includes(row.status)) ||
        row.status === ack.status) &&
      (!ack.confirmed.has('from') || row.from_ok || row.status === 'cancelled') &&
      (!ack.confirmed.has('to') || row.to_ok);
    if (!fine) lost++;
  }
  if (lost) failures.push(`${lost} acknowledged proposals, acceptances or completions missing`);
  let broken = 0;
  for (const [name, query] of Object.entries(INVARIANTS)) {
    const [row] = await queryRows<{ n: number }>(db, query(seeded.barters, seeded.items));
    if (row?.n) {
      broken++;
      failures.push(`invariant broken: ${name} (${row.n})`);
    }
  }
  const [counts] = await queryRows<{ completed: number; accepted: number; reserved: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed,
               count(*) FILTER (WHERE status = 'accepted')::int AS accepted,
               (SELECT count(*) FROM items WHERE id > ${seeded.items} AND reserved_by_request_id IS NOT NULL)::int AS reserved
        FROM barter_requests WHERE id > ${seeded.barters}`,
  );
  return { failures, counts, invariants: Object.keys(INVARIANTS).length - broken };
}

/**
 * kill -9 in the middle of listing, proposal, message, acceptance and completion writes (issue 18),
 * on one database: pairs of members trade through the real server until it is killed at a random
 * moment; the server is started again on the same data, then every write it acknowledged (a 2xx
 * with its id) must be in the database and the trade invariants must hold.
 */
export function killMidWrite(kind: DatabaseKind): Fault {
  return {
    name: `kill-9-mid-write-${kind}`,
    timeoutMs: 120_000,
    needs: [kind],
    async run({ suite, processes, short }) {
      const town = suite.town(kind);
      const env: Record<string, string> =
        kind === 'postgres'
          ? { DATABASE_URL: (await suite.postgres('kill9')).url }
          : { DATA_DIR: suite.pglite('kill9') };
      const port = suite.port();
      const server = await processes.start(env, { port });
      const acks: Acks = {
        items: [],
        messages: [],
        barters: new Map(),
        writes: 0,
        refused: 0,
        unexpected: [],
      };
      const pairs = town.traders.slice(0, short ? 4 : 8);
      const trading = Promise.all(pairs.map((pair, index) => trade(server.base, pair, acks, index)));
      // Killed at a random moment once every kind of write is in the mix (completions come last).
      const started = now();
      const completions = () => [...acks.barters.values()].filter((b) => b.status === 'completed').length;
      while (completions() < (short ? 2 : 4) && now() - started < (short ? 15_000 : 25_000)) await sleep(50);
      await sleep(Math.random() * (short ? 1_500 : 3_000));
      const killAfter = now() - started;
      process.kill(server.pid, 'SIGKILL');
      const killed = await server.exited;
      await trading;

      const restartedAt = now();
      const again = await processes.start(env, { port });
      const restartMs = now() - restartedAt;
      const failures: string[] = [];
      const giver = pairs[0]?.[0];
      if (giver) {
        const read = await send(
          again.base,
          { kind: 'read', method: 'GET', path: '/api/items/my', cookie: giver.cookie },
          {},
        );
        if (read.status !== 200)
          failures.push(`reading listings after the restart: ${read.status || read.error}`);
      }
      await again.stop();

      const handle =
        kind === 'postgres'
          ? openPostgres({ url: env.DATABASE_URL as string, poolMax: 2, statementTimeoutMs: 60_000 })
          : await openPglite({ dataDir: embeddedDatabaseDir(env.DATA_DIR as string) });
      try {
        const checked = await verify(handle, acks, town.seeded);
        failures.push(...checked.failures);
        if (acks.unexpected.length) {
          const sample = acks.unexpected
            .slice(0, 3)
            .map((o) => `${o.kind} ${o.status}`)
            .join(', ');
          failures.push(
            `${acks.unexpected.length} writes answered neither 2xx, 503 nor by a dead server (${sample})`,
          );
        }
        if (killed.signal !== 'SIGKILL')
          failures.push(`the server ended by ${killed.signal ?? `code ${killed.code}`}, not the kill`);
        const c = checked.counts;
        return {
          figures:
            `killed after ${ms(killAfter)} of ${pairs.length} pairs trading: ${acks.writes} writes answered (${acks.refused} 503), ` +
            `${acks.items.length} listings, ${acks.barters.size} proposals, ${acks.messages.length} messages acknowledged; ` +
            `restarted in ${ms(restartMs)}; all acknowledged present: ${checked.failures.some((f) => f.includes('missing')) ? 'no' : 'yes'}; ` +
            `${checked.invariants}/${Object.keys(INVARIANTS).length} invariants hold ` +
            `(${c?.completed ?? 0} completed, ${c?.accepted ?? 0} accepted, ${c?.reserved ?? 0} items reserved)`,
          failures,
        };
      } finally {
        await handle.close();
      }
    },
  };
}
