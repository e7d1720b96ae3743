/**
 * `npm run admin -- grant EMAIL` / `npm run admin -- revoke EMAIL`: give or take the moderator role
 * (ADR 025). The first moderator can only come from here, never from the web. Uses the same settings
 * as `npm start` (DATABASE_URL, or the embedded database under DATA_DIR, which must not be open in a
 * running server: stop it first, or use PostgreSQL). Each change goes in the audit log.
 */
import pino from 'pino';
import { openConfiguredDatabase } from '#server/db/open.ts';
import { setModerator } from '#server/features/safety/index.ts';
import { scriptConfig } from './script-config';

const USAGE = 'usage: npm run admin -- grant EMAIL | revoke EMAIL';

async function main(): Promise<number> {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !email) {
    console.error(USAGE);
    return 2;
  }
  const config = scriptConfig();
  if (!config) return 2;
  const log = pino({ level: 'warn' });
  const database = await openConfiguredDatabase(config, log);
  try {
    const member = await setModerator(database.db, email, command === 'grant');
    console.log(
      command === 'grant'
        ? `${member.email} is now a moderator.`
        : `${member.email} is no longer a moderator.`,
    );
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
