import * as oidc from 'openid-client';
import type { GoogleIdentity } from './auth-service';

/** Values that tie a callback to the browser that started the sign-in. */
export interface PendingAuthorization {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface GoogleClientOptions {
  clientId: string;
  clientSecret: string;
  issuerUrl: string;
  redirectUri: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Plain http is only allowed for an issuer on this machine (a local test provider such as
 * oauth2-mock-server); Google itself and any other remote issuer must use https.
 */
function allowsInsecure(issuer: URL): boolean {
  return issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
}

function isVerified(value: unknown): boolean {
  // Google has sent this claim both as a boolean and as the string "true".
  return value === true || value === 'true';
}

const optionalString = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/**
 * OpenID Connect authorization code flow with PKCE (S256), state and nonce, via openid-client.
 * The provider's metadata is discovered on first use and cached; a failed discovery is retried next time.
 */
export function createGoogleClient(options: GoogleClientOptions) {
  let configuration: Promise<oidc.Configuration> | null = null;

  const discover = () => {
    if (!configuration) {
      const issuer = new URL(options.issuerUrl);
      configuration = oidc
        .discovery(issuer, options.clientId, options.clientSecret, undefined, {
          execute: allowsInsecure(issuer) ? [oidc.allowInsecureRequests] : [],
          timeout: 10,
        })
        .catch((error: unknown) => {
          configuration = null;
          throw error;
        });
    }
    return configuration;
  };

  return {
    /** The provider's authorization URL and the values to remember until the callback. */
    async start(): Promise<{ url: URL; pending: PendingAuthorization }> {
      const config = await discover();
      const pending: PendingAuthorization = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url, pending };
    },

    /**
     * Check the callback's state, redeem the code with the PKCE verifier, verify the ID token
     * (signature, issuer, audience, expiry, nonce) and return who signed in. Throws on any failure.
     */
    async finish(query: string, pending: PendingAuthorization): Promise<GoogleIdentity> {
      const config = await discover();
      const callbackUrl = new URL(options.redirectUri);
      callbackUrl.search = query;
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the provider returned no ID token');
      return {
        sub: claims.sub,
        email: optionalString(claims.email),
        emailVerified: isVerified(claims.email_verified),
        givenName: optionalString(claims.given_name),
        familyName: optionalString(claims.family_name),
        name: optionalString(claims.name),
      };
    },
  };
}

export type GoogleClient = ReturnType<typeof createGoogleClient>;
