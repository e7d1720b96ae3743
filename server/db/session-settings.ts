/**
 * Settings every session of the app's database starts with: each connection of PostgreSQL's pools
 * (as startup options) and PGlite's one session (as start parameters), so a statement finds them the
 * same on both (ADR 128).
 */

/**
 * The least pg_trgm similarity of a listed word to a search word no listing has for the word to be
 * measured by edit distance (server/features/feed/search.ts). It is also pg_trgm's threshold for
 * the strict word similarity operator `<<%`, which can use the vocabulary's trigram index: a word's
 * strict word similarity is never below its similarity, so `<<%` at this threshold keeps every word
 * the similarity keeps, and the index finds them without scoring the whole vocabulary.
 */
export const TRIGRAM_CANDIDATE_SIMILARITY = 0.3;

export const SESSION_SETTINGS: Readonly<Record<string, string>> = {
  // No JIT compilation (ADR 091): the app's statements are short, and a planner's estimate of a
  // large join (the match graph's item updates) made PostgreSQL compile 667 functions for 13 s
  // where the query itself took 0.3 s. A server setting of jit = on is overridden per connection.
  jit: 'off',
  'pg_trgm.strict_word_similarity_threshold': String(TRIGRAM_CANDIDATE_SIMILARITY),
};

/** The settings as `-c name=value` arguments, PostgreSQL's startup options and PGlite's start parameters. */
export function sessionSettingArgs(): string[] {
  return Object.entries(SESSION_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}
