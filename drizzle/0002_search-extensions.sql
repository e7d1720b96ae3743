-- Trigram similarity for near spellings in search and want-to-item matching ("dril" finds "Cordless drill").
-- Applied from code (server/db/migrate.ts); PGlite loads the extension in server/db/client.ts openPglite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
