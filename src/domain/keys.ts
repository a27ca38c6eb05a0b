/**
 * @module domain/keys
 * API key pairs. The public key (`API_KEY`) identifies the pair; the secret
 * (`API_SECRET`) is shown once at creation and stored only as a keyed hash.
 *
 * Why HMAC-SHA-256 and not bcrypt/scrypt/argon2: those slow hashes exist to
 * make guessing low-entropy passwords expensive. Our secrets are 256 random
 * bits, so guessing is infeasible at any hash speed, and a slow hash would
 * only add tens of milliseconds of CPU to every API request. The hash is keyed
 * (a server-side pepper, API_SECRET_PEPPER) and bound to the public key: with
 * the pepper kept out of the database's backups, a stolen database alone
 * cannot be used to test candidate secrets (with the built-in default pepper,
 * which is public, only the secrets' 256 bits protect them, and start warns),
 * and a digest copied to another key's row does not verify there.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { NotFoundError, UnauthorizedError, ValidationError, type FieldError } from './errors.ts';
import { newId, randomBase62, randomSecret } from './ids.ts';
import type { ApiKeyStore, KeyPorts } from './key-ports.ts';
import type { MemberPorts, OrganizationStore } from './member-ports.ts';
import { authorize } from './policies.ts';
import { checkText } from './text.ts';
import type { ApiKey, Organization } from './types.ts';

const PUBLIC_KEY_PREFIX = 'fk_';
const SECRET_PREFIX = 'fs_';

export function hashSecret(pepper: string, publicKey: string, secret: string): string {
  return createHmac('sha256', pepper).update(publicKey).update('\0').update(secret).digest('hex');
}

/**
 * A fingerprint of a key pair that may be kept outside the database (process
 * memory, Redis): a hash of the stored digest, so it reveals neither the
 * digest nor, without the pepper, a way to test candidate secrets. The
 * failed-authentication limit remembers the fingerprints of pairs that
 * recently authenticated, to tell them from a flood of bad ones without a
 * lookup. Undefined for credentials `authenticate` refuses unread.
 */
export function credentialFingerprint(pepper: string, publicKey: string | undefined, secret: string | undefined): string | undefined {
  if (!publicKey || !secret || tooLong(publicKey, secret)) return undefined;
  return createHash('sha256').update(hashSecret(pepper, publicKey, secret)).digest('base64url');
}

function tooLong(publicKey: string, secret: string): boolean {
  return publicKey.length > 200 || secret.length > 200;
}

export interface IssuedKey {
  key: ApiKey;
  /** The only time the secret exists outside the caller's hands. */
  secret: string;
}

/** The longest name a key may have. */
export const KEY_NAME_MAX = 100;

export type KeyStatus = 'active' | 'expired' | 'revoked';

/** Where a key stands at `now`; revoked wins over expired. */
export function keyStatus(key: ApiKey, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  return isKeyUsable(key, now) ? 'active' : 'expired';
}

/** What is wrong with a new key's name and expiry, by field (none: it may be issued). */
export function keyInputErrors(input: { name?: string; expiresAt: Date | null }, now: Date): FieldError[] {
  const errors: FieldError[] = [];
  checkText(errors, 'name', input.name, { required: input.name !== undefined, max: KEY_NAME_MAX });
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    errors.push({ field: 'expiresAt', message: 'expiresAt must be in the future.' });
  }
  return errors;
}

/**
 * Issues a key pair for the actor's organization. A `name` given must not
 * be blank (the operator may issue unnamed keys, as before keys had names);
 * an expiry must lie in the future.
 */
export async function createApiKey(
  ctx: DomainContext<KeyPorts>,
  actor: Actor,
  input: { name?: string; expiresAt: Date | null },
): Promise<IssuedKey> {
  authorize(actor, 'apiKey.manage');
  const org = actor.organization;
  const now = ctx.now();
  const errors = keyInputErrors(input, now);
  if (errors.length) throw new ValidationError(errors);
  const publicKey = PUBLIC_KEY_PREFIX + randomBase62(24);
  const secret = SECRET_PREFIX + randomSecret();
  const key: ApiKey = {
    id: newId(),
    organizationId: org.id,
    publicKey,
    secretHash: hashSecret(ctx.secretPepper, publicKey, secret),
    expiresAt: input.expiresAt,
    revokedAt: null,
    createdAt: now,
    name: input.name?.trim() ?? '',
    lastUsedAt: null,
  };
  await ctx.store.insertApiKey(key);
  return { key, secret };
}

export async function listApiKeys(ctx: DomainContext<KeyPorts>, actor: Actor): Promise<ApiKey[]> {
  authorize(actor, 'apiKey.manage');
  return ctx.store.listApiKeys(actor.organization.id);
}

/**
 * Revokes one of the actor's organization's keys, named by its public key
 * or by its id; another organization's key is not found. The
 * `api_key.revoked` event makes every cache of this process forget it.
 */
export async function revokeApiKey(ctx: DomainContext<KeyPorts>, actor: Actor, ref: string | { id: string }): Promise<ApiKey> {
  authorize(actor, 'apiKey.manage');
  const orgId = actor.organization.id;
  return transact(ctx, async (tx) => {
    const at = tx.now();
    const publicKey = typeof ref === 'string' ? ref : (await tx.store.findApiKeyById(orgId, ref.id))?.publicKey;
    const key = publicKey === undefined ? undefined : await tx.store.revokeApiKey(orgId, publicKey, at);
    if (!key) throw new NotFoundError('API key');
    raise(tx, { type: 'api_key.revoked', organizationId: key.organizationId, publicKey: key.publicKey, at });
    return key;
  });
}

/** The organization a public key belongs to, for the operator who names only the key. */
export async function keyOrganization(ctx: DomainContext<KeyPorts & MemberPorts>, publicKey: string): Promise<Organization> {
  const key = await ctx.store.findApiKey(publicKey);
  const organization = key && (await ctx.store.findOrganization(key.organizationId));
  if (!organization) throw new NotFoundError('API key');
  return organization;
}

/** The reads of authentication; a cache may stand in for the store (see limits/lookup-cache.ts). */
export type CredentialLookups = Pick<ApiKeyStore, 'findApiKey'> & Pick<OrganizationStore, 'findOrganization'>;

export function isKeyUsable(key: ApiKey, now: Date): boolean {
  if (key.revokedAt) return false;
  return key.expiresAt === null || key.expiresAt.getTime() > now.getTime();
}

/**
 * Resolves a request's credentials to its organization. Every failure is the
 * same `UnauthorizedError`, so a caller learns nothing about which part was wrong.
 */
export async function authenticate(
  ctx: DomainContext<KeyPorts & MemberPorts>,
  publicKey: string | undefined,
  secret: string | undefined,
  lookups: CredentialLookups = ctx.store,
): Promise<{ key: ApiKey; organization: Organization }> {
  if (!publicKey || !secret || tooLong(publicKey, secret)) throw new UnauthorizedError();
  const key = await lookups.findApiKey(publicKey);
  const presented = Buffer.from(hashSecret(ctx.secretPepper, publicKey, secret), 'hex');
  const stored = Buffer.from(key?.secretHash ?? '', 'hex');
  const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!key || !matches || !isKeyUsable(key, ctx.now())) throw new UnauthorizedError();
  const organization = await lookups.findOrganization(key.organizationId);
  if (!organization) throw new UnauthorizedError();
  return { key, organization };
}
