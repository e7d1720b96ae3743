import { sql } from 'drizzle-orm';
import { ITEM_CONDITIONS } from '#common/schemas/listings.ts';
import type { Db } from '../db/client';
import { askAgainWhileBusy } from './busy';

/**
 * A synthetic neighbourhood for EXPLAIN tests and `npm run bench:feed`: members clustered around a
 * few towns, their items and wants drawn from a small catalogue, some completed trades with
 * ratings, some saved items. Filled with set-based SQL (generate_series), so 100,000 items take
 * seconds, not minutes. Deterministic: every "random" choice is a seeded hash of the row number.
 */

export interface NeighbourhoodSize {
  members: number;
  items: number;
  wants: number;
  /** Completed trades (barter requests), each rated by both sides. */
  trades?: number;
  /** Saved items in all. */
  saves?: number;
}

/** Towns about 30 to 60 miles apart (south-east Pennsylvania, New Jersey, Delaware). */
export const TOWNS = [
  { name: 'Philadelphia', latitude: 39.9526, longitude: -75.1652 },
  { name: 'Trenton', latitude: 40.2171, longitude: -74.7429 },
  { name: 'Wilmington', latitude: 39.7391, longitude: -75.5398 },
  { name: 'Allentown', latitude: 40.6084, longitude: -75.4902 },
  { name: 'Lancaster', latitude: 40.0379, longitude: -76.3055 },
] as const;

/** How far members live from their town's centre: up to this many miles in each direction. */
const SPREAD_MILES = 12;

/** [title, category, isService]: what members offer and want. */
const CATALOGUE: Array<[string, string, boolean]> = [
  ['Cordless drill', 'tools', false],
  ['Circular saw', 'tools', false],
  ['Socket wrench set', 'tools', false],
  ['Step ladder', 'tools', false],
  ['Orbital sander', 'tools', false],
  ['Mountain bike', 'bikes', false],
  ['Road bike', 'bikes', false],
  ['Kids bike', 'bikes', false],
  ['Bike helmet', 'bike parts', false],
  ['Acoustic guitar', 'music instr', false],
  ['Digital piano', 'music instr', false],
  ['Violin', 'music instr', false],
  ['Camping tent', 'rvs+camp', false],
  ['Sleeping bag', 'rvs+camp', false],
  ['Lawn mower', 'farm+garden', false],
  ['Garden hose', 'farm+garden', false],
  ['Raised bed planter', 'farm+garden', false],
  ['Bookshelf', 'furniture', false],
  ['Dining chairs', 'furniture', false],
  ['Coffee table', 'furniture', false],
  ['Desk lamp', 'household', false],
  ['Stand mixer', 'appliances', false],
  ['Slow cooker', 'appliances', false],
  ['Espresso machine', 'appliances', false],
  ['Laptop', 'computers', false],
  ['Computer monitor', 'computer parts', false],
  ['Mechanical keyboard', 'computer parts', false],
  ['Smartphone', 'cell phones', false],
  ['Bluetooth speaker', 'electronics', false],
  ['Board games', 'toys+games', false],
  ['Lego set', 'toys+games', false],
  ['Baby stroller', 'baby+kid', false],
  ['Winter jacket', 'clothes+acc', false],
  ['Hiking boots', 'clothes+acc', false],
  ['Cookbook collection', 'books', false],
  ['Science fiction novels', 'books', false],
  ['Yoga mat', 'sporting', false],
  ['Tennis racket', 'sporting', false],
  ['Kayak', 'boats', false],
  ['Camera lens', 'photo+video', false],
  ['Guitar lessons', 'lessons', true],
  ['Math tutoring', 'lessons', true],
  ['Spanish lessons', 'lessons', true],
  ['Bicycle repair', 'cycle', true],
  ['Lawn mowing', 'farm+garden', true],
  ['House cleaning', 'household', true],
  ['Moving help', 'labor/move', true],
  ['Dog walking', 'pet', true],
  ['Computer repair', 'computer', true],
  ['Web design', 'creative', true],
  ['Portrait photography', 'creative', true],
  ['Plumbing repair', 'skilled trade', true],
  ['Tax preparation help', 'financial', true],
  ['Haircut at home', 'beauty', true],
];

const ADJECTIVES = [
  'Vintage',
  'Like-new',
  'Sturdy',
  'Compact',
  'Large',
  'Lightly used',
  'Well-kept',
  'Handmade',
  'Classic',
  'Portable',
  'Heavy-duty',
  'Family',
];

/** Syllables of made-up brand names ("Kalomi"): 1,000 of them, so a brand is a rare, realistic search word. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'tu', 've', 'zo', 'ne', 'pa', 'si'];

const PHRASES = [
  'Works perfectly, comes with everything in the photo.',
  'A few scratches but fully working.',
  'Used a handful of times, stored indoors.',
  'Great for beginners and weekend projects.',
  'Moving soon, would love to swap for something useful.',
  'Clean, smoke-free home, pick up nearby.',
  'Includes the original box and manual.',
  'Happy to show how it works before you take it.',
];

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const textArray = (values: readonly string[]) => `(ARRAY[${values.map(literal).join(',')}]::text[])`;
const boolArray = (values: readonly boolean[]) => `(ARRAY[${values.join(',')}]::boolean[])`;

/** A uniform number in [0, 1) from the row number `g` and a salt: deterministic and fast. */
const unit = (g: string, salt: number) =>
  `((hashint4extended(${g}, ${salt}) & 2147483647)::float8 / 2147483648.0)`;
/** 1 to n, from the row number and a salt. */
const pick = (g: string, salt: number, n: number) => `(1 + floor(${unit(g, salt)} * ${n})::int)`;

/** How long one statement is sent again while it finds the database busy (see exec). */
const BUSY_RETRY_MS = 90_000;

/**
 * Run one statement of raw SQL text. On PGlite (one connection) a running app's own jobs, the match
 * graph's drain of the changes this fill logs above all, may hold the connection past the wait
 * limit (DB_ACQUIRE_TIMEOUT_MS); the statement then never ran (DatabaseBusyError), so, like a
 * client answered 503, it is sent again.
 */
async function exec(db: Db, text: string): Promise<void> {
  await askAgainWhileBusy(() => db.execute(sql.raw(text)), BUSY_RETRY_MS);
}

/**
 * Fill the database with a neighbourhood of the given size (on top of whatever is there). Members
 * get e-mails `bench-<n>@bench.example`; every 20th has no location.
 */
/** Items written per INSERT statement by fillNeighbourhood. */
const ITEMS_PER_STATEMENT = 2_000;

export async function fillNeighbourhood(db: Db, size: NeighbourhoodSize): Promise<void> {
  const titles = textArray(CATALOGUE.map(([title]) => title));
  const categories = textArray(CATALOGUE.map(([, category]) => category));
  const services = boolArray(CATALOGUE.map(([, , isService]) => isService));
  const towns = TOWNS.length;
  const lats = `(ARRAY[${TOWNS.map((t) => t.latitude).join(',')}]::float8[])`;
  const lons = `(ARRAY[${TOWNS.map((t) => t.longitude).join(',')}]::float8[])`;
  const entries = CATALOGUE.length;

  // Members: a town each (round robin), a point up to SPREAD_MILES away (triangular, denser in the centre).
  await exec(
    db,
    `INSERT INTO users (email, first_name, last_name, location, latitude, longitude)
     SELECT 'bench-' || g || '@bench.example', 'Member' || g, 'Bench',
       CASE WHEN g % 20 = 0 THEN NULL ELSE 'Town ' || (1 + g % ${towns}) END,
       CASE WHEN g % 20 = 0 THEN NULL ELSE round((${lats}[1 + g % ${towns}]
         + (${unit('g', 1)} + ${unit('g', 2)} - 1) * ${SPREAD_MILES} / 69.09)::numeric, 8) END,
       CASE WHEN g % 20 = 0 THEN NULL ELSE round((${lons}[1 + g % ${towns}]
         + (${unit('g', 3)} + ${unit('g', 4)} - 1) * ${SPREAD_MILES} / (69.09 * cos(radians(${lats}[1 + g % ${towns}]))))::numeric, 8) END
     FROM generate_series(1, ${size.members}) g`,
  );

  // Numbered members, so items and wants can pick an owner by number. A plain table, not a
  // temporary one: with a connection pool each statement may run on another connection.
  await exec(db, 'DROP TABLE IF EXISTS bench_members');
  await exec(
    db,
    `CREATE TABLE bench_members AS
     SELECT id, row_number() OVER (ORDER BY id) AS n FROM users WHERE email LIKE 'bench-%@bench.example'`,
  );
  await exec(db, 'CREATE UNIQUE INDEX ON bench_members (n)');
  const members = `(SELECT count(*) FROM bench_members)`;

  // Items: catalogue entry, an adjective or (half of them) a brand, a phrase; 15% without a value;
  // goods in one of the five conditions, a fifth of them without one (ADR 082);
  // 5% inactive; up to a year old.
  const syllable = (salt: number) => `${textArray(SYLLABLES)}[${pick('g', salt, SYLLABLES.length)}]`;
  // In slices: each item's row depends on its number alone, and one statement per slice stays far
  // inside the product's statement timeout on a loaded machine (the search postings' trigger and
  // the generated columns cost per row).
  for (let from = 1; from <= size.items; from += ITEMS_PER_STATEMENT) {
    const to = Math.min(size.items, from + ITEMS_PER_STATEMENT - 1);
    await exec(
      db,
      `INSERT INTO items (user_id, title, description, category, is_service, estimated_value, is_active, created_at, updated_at, condition)
     SELECT m.id,
       CASE WHEN ${unit('g', 18)} < 0.5
         THEN initcap(${syllable(51)} || ${syllable(52)} || ${syllable(53)})
         ELSE ${textArray(ADJECTIVES)}[${pick('g', 11, ADJECTIVES.length)}] END || ' ' || lower(${titles}[e]),
       ${titles}[e] || '. ' || ${textArray(PHRASES)}[${pick('g', 12, PHRASES.length)}],
       ${categories}[e], ${services}[e],
       CASE WHEN ${unit('g', 13)} < 0.15 THEN NULL ELSE round((5 + ${unit('g', 14)} * 495)::numeric, 2) END,
       ${unit('g', 15)} >= 0.05,
       now() - make_interval(secs => ${unit('g', 16)} * 365 * 86400),
       now(),
       CASE WHEN ${services}[e] OR ${unit('g', 19)} < 0.2 THEN NULL
         ELSE ${textArray([...ITEM_CONDITIONS])}[${pick('g', 26, ITEM_CONDITIONS.length)}] END
     FROM (SELECT g, ${pick('g', 10, entries)} AS e, 1 + (hashint4extended(g, 17) & 2147483647) % ${members} AS owner
           FROM generate_series(${from}, ${to}) g) s
     JOIN bench_members m ON m.n = s.owner`,
    );
  }

  // Wants: a catalogue title; half with a maxValue; 10% inactive.
  await exec(
    db,
    `INSERT INTO wants (user_id, title, description, category, is_service, max_value, is_active, created_at)
     SELECT m.id, ${titles}[e], NULL, ${categories}[e], ${services}[e],
       CASE WHEN ${unit('g', 21)} < 0.5 THEN NULL ELSE round((20 + ${unit('g', 22)} * 480)::numeric, 2) END,
       ${unit('g', 23)} >= 0.1,
       now() - make_interval(secs => ${unit('g', 24)} * 365 * 86400)
     FROM (SELECT g, ${pick('g', 20, entries)} AS e, 1 + (hashint4extended(g, 25) & 2147483647) % ${members} AS owner
           FROM generate_series(1, ${size.wants}) g) s
     JOIN bench_members m ON m.n = s.owner`,
  );

  const trades = size.trades ?? 0;
  if (trades > 0) {
    await exec(
      db,
      `INSERT INTO barter_requests (from_user_id, to_user_id, message, status, created_at, updated_at)
       SELECT a.id, b.id, 'Swap?', 'completed', now() - interval '30 days', now() - interval '20 days'
       FROM generate_series(1, ${trades}) g
       JOIN bench_members a ON a.n = 1 + (hashint4extended(g, 31) & 2147483647) % ${members}
       JOIN bench_members b ON b.n = 1 + (hashint4extended(g, 32) & 2147483647) % ${members}
       WHERE a.id <> b.id`,
    );
    await exec(
      db,
      `INSERT INTO ratings (barter_request_id, rater_id, ratee_id, stars, revealed_at)
       SELECT r.id, r.from_user_id, r.to_user_id, 3 + (hashint4extended(r.id, 33) & 3) % 3, now() - interval '20 days'
       FROM barter_requests r WHERE r.message = 'Swap?'
       UNION ALL
       SELECT r.id, r.to_user_id, r.from_user_id, 3 + (hashint4extended(r.id, 34) & 3) % 3, now() - interval '20 days'
       FROM barter_requests r WHERE r.message = 'Swap?'`,
    );
  }

  const saves = size.saves ?? 0;
  if (saves > 0) {
    await exec(
      db,
      `INSERT INTO saved_items (user_id, item_id)
       SELECT m.id, i.id
       FROM generate_series(1, ${saves}) g
       JOIN bench_members m ON m.n = 1 + (hashint4extended(g, 41) & 2147483647) % ${members}
       JOIN items i ON i.id = (SELECT min(id) FROM items) + (hashint4extended(g, 42) & 2147483647) % ${size.items}
       ON CONFLICT DO NOTHING`,
    );
  }
  await exec(db, 'DROP TABLE IF EXISTS bench_members');
  // VACUUM too: it moves the new rows from the GIN indexes' pending lists into the indexes proper
  // (as autovacuum would in time); until then the planner rightly finds those indexes expensive.
  await exec(db, 'VACUUM ANALYZE');
}
