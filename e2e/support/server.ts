/**
 * The server the browser journeys run against: a local OpenID Connect provider standing in for
 * Google (oauth2-mock-server on loopback), then Barterhood itself configured to use it.
 */
import { OAuth2Server } from 'oauth2-mock-server';

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
