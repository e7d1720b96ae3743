/**
 * The server the browser journeys run against: a local OpenID Connect provider standing in for
 * Google (oauth2-mock-server on loopback), a real SMTP server receiving the app's mail (each message
 * saved as JSON under DATA_DIR/e2e-mail for the journeys to read), then Barterhood itself
 * configured to use both: the compiled build `npm start` runs (dist/node/main.mjs, ADR 071), built
 * first when it is missing or stale, as `npm start` builds it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { simpleParser } from 'mailparser';
import { OAuth2Server } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';
import { SERVER_OUT } from '../../scripts/build-state.mjs';
import { startHandOverClock } from './hand-over-clock';
import { E2E_MODERATOR } from './moderator';

// What scripts/run.mjs does before `npm start`: build what is missing or older than its sources.
const root = path.resolve(import.meta.dirname, '../..');
const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-stale.ts', '--web'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) throw new Error('The build for the journeys failed (scripts/build-stale.ts).');

const mailDir = path.resolve(process.env.DATA_DIR ?? '.data-e2e', 'e2e-mail');
mkdirSync(mailDir, { recursive: true });
let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const message = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: mail.subject ?? '',
          text: mail.text ?? '',
        };
        received++;
        // Written whole, then renamed: a journey never reads half a message.
        const name = `${Date.now()}-${received}.json`;
        writeFileSync(path.join(mailDir, `.${name}.tmp`), JSON.stringify(message));
        renameSync(path.join(mailDir, `.${name}.tmp`), path.join(mailDir, name));
        callback();
      })
      .catch((error: Error) => callback(error));
  },
});
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 5197);
await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;

const providerPort = Number(process.env.E2E_OIDC_PORT ?? 5198);
const provider = new OAuth2Server();
await provider.issuer.keys.generate('RS256');
await provider.start(providerPort, '127.0.0.1');
// Every sign-in at this provider is the same verified Google account.
provider.service.on('beforeTokenSigning', (token) => {
  Object.assign(token.payload, {
    sub: 'e2e-google-account',
    email: 'gina.google@example.com',
    email_verified: true,
    given_name: 'Gina',
    family_name: 'Google',
  });
});

process.env.GOOGLE_CLIENT_ID = 'barterhood-e2e';
process.env.GOOGLE_CLIENT_SECRET = 'e2e-secret';
process.env.GOOGLE_ISSUER_URL = provider.issuer.url ?? `http://127.0.0.1:${providerPort}`;

// The first moderator comes from the command line (npm run admin -- grant EMAIL), never the web:
// made here the same way, before the server opens the embedded database.
{
  const { loadConfig } = await import('#server/config.ts');
  const { openConfiguredDatabase } = await import('#server/db/open.ts');
  const { register } = await import('#server/features/auth/index.ts');
  const { setModerator } = await import('#server/features/safety/index.ts');
  const { default: pino } = await import('pino');
  const database = await openConfiguredDatabase(loadConfig(), pino({ level: 'warn' }));
  try {
    await register(database.db, {
      firstName: 'Morgan',
      lastName: 'Moderator',
      email: E2E_MODERATOR.email,
      password: E2E_MODERATOR.password,
    }).catch(() => undefined); // made by an earlier start on the same data
    await setModerator(database.db, E2E_MODERATOR.email, true);
  } finally {
    await database.close();
  }
}

// Moving a hand-over's window and a no-show report's time into the past (ADR 079).
await startHandOverClock();

// The server users run, not its sources: what the bundling does (ADR 071, 122) is under test too.
const program = path.join(root, SERVER_OUT, 'main.mjs');
process.argv.splice(1, process.argv.length - 1, program);
await import(pathToFileURL(program).href);
