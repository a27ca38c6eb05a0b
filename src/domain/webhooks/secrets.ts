/**
 * @module domain/webhooks/secrets
 * Signing secrets in the Standard Webhooks form (`whsec_` + base64 of 32
 * random bytes) and the signature of one attempt.
 *
 * Unlike API secrets, which only need verifying and are kept as a hash, a
 * signing secret must be usable to sign, so it is stored sealed:
 * AES-256-GCM under a key derived from API_SECRET_PEPPER. With a pepper
 * set (as production must: start warns without one), a copy of the
 * database alone (a backup) does not reveal the secrets; with the public
 * built-in pepper it does.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { StoredSecret } from './types.ts';

const PREFIX = 'whsec_';

/** A fresh secret, as shown once to whoever created or rotated the endpoint. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function sealingKey(pepper: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, 'foyer', 'foyer/webhook-signing-secret/v1', 32));
}

export function sealSecret(pepper: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(pepper), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function unsealSecret(pepper: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown sealed secret format.');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(pepper), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** The secrets that sign at `now`: the current one and any still in their rotation overlap. */
export function signingSecrets(secrets: StoredSecret[], now: Date): StoredSecret[] {
  return secrets.filter((s) => s.expiresAt === null || s.expiresAt.getTime() > now.getTime());
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the secret's decoded bytes. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
}

/** The three Standard Webhooks headers of one attempt; several signatures during a rotation, space-separated. */
export function signedHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signature(s, id, timestampSeconds, body)).join(' '),
  };
}
