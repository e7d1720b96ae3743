/**
 * The server the browser journeys run against: a local OpenID Connect provider standing in for
 * Google (oauth2-mock-server on loopback), a real SMTP server receiving the app's mail (each message
 * saved as JSON under DATA_DIR/e2e-mail for the journeys to read), then Barterhood itself
 * configured to use both.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { OAuth2Server } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';

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
        writeFileSync(path.join(mailDir, `${Date.now()}-${received}.json`), JSON.stringify(message));
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

await import('../../server/main');
