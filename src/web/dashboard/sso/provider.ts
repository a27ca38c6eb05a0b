/**
 * @module web/dashboard/sso/provider
 * The OpenID Connect relying party (openid-client): an organization's
 * provider discovered from its issuer and kept for a while, the
 * authorization request (code flow, PKCE S256, state and nonce), and the
 * code exchange with the checks openid-client makes (issuer, audience,
 * signature, nonce, state, PKCE). When the ID token says nothing about the
 * email, the provider's userinfo is asked: a provider conforming to the
 * spec may keep scope claims out of the ID token.
 */
import * as oidc from 'openid-client';
import type { SsoClient, SsoIdentity } from '../../../domain/sso.ts';

/** How long a discovered provider is reused before its metadata is fetched again. */
const DISCOVERY_TTL_MS = 10 * 60_000;

const discovered = new Map<string, { version: number; at: number; config: Promise<oidc.Configuration> }>();

export async function providerConfig(client: SsoClient, now = Date.now()): Promise<oidc.Configuration> {
  const cached = discovered.get(client.organizationId);
  if (cached && cached.version === client.version && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
  // The domain only lets http through for a loopback issuer (domain/sso.ts).
  const options = new URL(client.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
  const config = oidc.discovery(new URL(client.issuer), client.clientId, client.clientSecret, undefined, options);
  discovered.set(client.organizationId, { version: client.version, at: now, config });
  config.catch(() => discovered.delete(client.organizationId));
  return config;
}

/** What the callback must check, kept by the browser sealed (see routes/sso.ts). */
export interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

export async function authorizationRequest(config: oidc.Configuration, redirectUri: string): Promise<{ url: URL; flow: Flow }> {
  const flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  });
  return { url, flow };
}

/** Exchanges the code in `callbackUrl` and returns what the provider says about the email; throws when any check fails. */
export async function completeSignIn(config: oidc.Configuration, callbackUrl: URL, flow: Flow): Promise<SsoIdentity> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    expectedNonce: flow.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error('The provider returned no ID token.');
  if (claims.email !== undefined && claims.email_verified !== undefined) return { email: claims.email, email_verified: claims.email_verified };
  const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { email: claims.email ?? info.email, email_verified: claims.email_verified ?? info.email_verified };
}
