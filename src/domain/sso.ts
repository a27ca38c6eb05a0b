/**
 * @module domain/sso
 * Single sign-on: an organization's OpenID Connect client, configured by
 * the operator (`foyer org sso`), and the rule that turns a provider's
 * verified identity into a session for an existing member.
 *
 * - The client secret is sealed under SSO_SECRET_KEY before it is stored
 *   (sealing.ts, bound to the organization's id) and is never shown back;
 *   without the key single sign-on can be neither configured nor used.
 * - The issuer must be https; http only on a loopback address (a provider
 *   on the same machine, as in tests), since the token exchange carries
 *   the client secret.
 * - A provider's identity signs in only the member of *that* organization
 *   whose email matches the ID token's email, and only when the provider
 *   says the email is verified (`email_verified: true`). No one is ever
 *   created: an unknown email is refused, as is a member of another
 *   organization.
 */
import { memberActor, type Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import type { MemberPorts } from './member-ports.ts';
import { authorize } from './policies.ts';
import { seal, unseal } from './sealing.ts';
import { startSession } from './sign-in.ts';
import type { MemberSession, Organization, OrganizationSso } from './types.ts';

const SEAL_PURPOSE = 'sso-client-secret';

export interface SsoInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** What may be shown of an organization's single sign-on: never the secret. */
export interface SsoView {
  issuer: string;
  clientId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The client as the sign-in flow needs it, secret unsealed. */
export interface SsoClient {
  organizationId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Changes when the operator reconfigures; lets a cache notice. */
  version: number;
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Why `raw` is not an acceptable issuer, or undefined. */
export function issuerProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The issuer must be a URL such as https://login.example.org/realms/clinic.';
  }
  if (url.username || url.password || url.search || url.hash) return 'The issuer is a plain URL, without user, query or fragment.';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return 'The issuer must use https (http only for a provider on this machine: localhost, 127.0.0.1, [::1]).';
}

function view(sso: OrganizationSso): SsoView {
  return { issuer: sso.issuer, clientId: sso.clientId, createdAt: sso.createdAt, updatedAt: sso.updatedAt };
}

function secretKey(ctx: DomainContext<MemberPorts>): string {
  if (!ctx.ssoSecretKey) {
    throw ValidationError.field('clientSecret', 'SSO_SECRET_KEY is not set: single sign-on needs it to keep client secrets sealed.');
  }
  return ctx.ssoSecretKey;
}

export async function configureSso(ctx: DomainContext<MemberPorts>, actor: Actor, input: SsoInput): Promise<SsoView> {
  authorize(actor, 'sso.manage');
  const issuer = input.issuer.trim();
  const clientId = input.clientId.trim();
  const problem = issuerProblem(issuer);
  if (problem) throw ValidationError.field('issuer', problem);
  if (!/^[\x21-\x7e]{1,255}$/.test(clientId)) throw ValidationError.field('clientId', 'The client id is 1-255 visible characters.');
  if (input.clientSecret.length < 1 || input.clientSecret.length > 1000) {
    throw ValidationError.field('clientSecret', 'The client secret is 1-1000 characters.');
  }
  const key = secretKey(ctx);
  const now = ctx.now();
  const existing = await ctx.store.findOrganizationSso(actor.organization.id);
  const sso: OrganizationSso = {
    organizationId: actor.organization.id,
    issuer,
    clientId,
    clientSecretSealed: seal(key, SEAL_PURPOSE, actor.organization.id, input.clientSecret),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await ctx.store.putOrganizationSso(sso);
  return view(sso);
}

/** Whether any organization signs its members in with single sign-on (the sign-in page then offers it). */
export function anyOrganizationHasSso(ctx: DomainContext<MemberPorts>): Promise<boolean> {
  return ctx.store.anyOrganizationSso();
}

/** Whether `organization` has single sign-on configured, usable or not (its secret may not unseal). */
export async function hasSso(ctx: DomainContext<MemberPorts>, organization: Organization): Promise<boolean> {
  return (await ctx.store.findOrganizationSso(organization.id)) !== undefined;
}

export async function showSso(ctx: DomainContext<MemberPorts>, actor: Actor): Promise<SsoView | undefined> {
  authorize(actor, 'sso.manage');
  const sso = await ctx.store.findOrganizationSso(actor.organization.id);
  return sso && view(sso);
}

/** Turns single sign-on off; false when it was not on. Open sessions stay until they end. */
export async function removeSso(ctx: DomainContext<MemberPorts>, actor: Actor): Promise<boolean> {
  authorize(actor, 'sso.manage');
  return ctx.store.deleteOrganizationSso(actor.organization.id);
}

/**
 * The organization's client for the sign-in flow; not-found when it has
 * none, or when its secret cannot be unsealed (SSO_SECRET_KEY missing or
 * changed: the operator must configure it again).
 */
export async function ssoClient(ctx: DomainContext<MemberPorts>, organization: Organization): Promise<SsoClient> {
  const sso = await ctx.store.findOrganizationSso(organization.id);
  const clientSecret = sso && ctx.ssoSecretKey ? unseal(ctx.ssoSecretKey, SEAL_PURPOSE, organization.id, sso.clientSecretSealed) : undefined;
  if (!sso || clientSecret === undefined) throw new NotFoundError('sso');
  return { organizationId: organization.id, issuer: sso.issuer, clientId: sso.clientId, clientSecret, version: sso.updatedAt.getTime() };
}

/** What the provider said about the person (ID token claims, or userinfo). */
export interface SsoIdentity {
  email?: unknown;
  email_verified?: unknown;
}

export type SsoSignInResult =
  | { ok: true; token: string; session: MemberSession; actor: Actor }
  | { ok: false; reason: 'email_unverified' | 'not_a_member' };

/** Signs in the member of `organization` the provider vouched for, if there is exactly that one. */
export async function signInWithSso(ctx: DomainContext<MemberPorts>, organization: Organization, identity: SsoIdentity): Promise<SsoSignInResult> {
  if (typeof identity.email !== 'string' || identity.email === '') return { ok: false, reason: 'not_a_member' };
  // Only the boolean true: a provider that does not vouch for the address does not sign anyone in.
  if (identity.email_verified !== true) return { ok: false, reason: 'email_unverified' };
  const user = await ctx.store.findUserByEmail(organization.id, identity.email);
  if (!user) return { ok: false, reason: 'not_a_member' };
  const { token, session } = await startSession(ctx, user, 'sso');
  return { ok: true, token, session, actor: memberActor(organization, user) };
}

/** Where the provider sends members back; the operator registers PUBLIC_URL + this at the provider. */
export const SSO_CALLBACK_PATH = '/dashboard/sso/callback';
