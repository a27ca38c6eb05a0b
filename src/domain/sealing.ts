/**
 * @module domain/sealing
 * Sealing a short secret under a server key: AES-256-GCM with a fresh
 * 96-bit nonce, the key derived from the setting by HKDF per purpose (so
 * one setting never keys two uses), and the context (for example the
 * organization's id) bound as additional data, so a sealed value copied
 * to another row or purpose does not open. Format: `v1.<nonce>.<box>`,
 * both base64url, the box being ciphertext and tag.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

function keyFor(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'foyer/sealing', purpose, 32));
}

export function seal(secret: string, purpose: string, context: string, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secret, purpose), nonce);
  cipher.setAAD(Buffer.from(context));
  const box = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${nonce.toString('base64url')}.${box.toString('base64url')}`;
}

/** The plaintext, or undefined when the value was not sealed with this key, purpose and context (or was altered). */
export function unseal(secret: string, purpose: string, context: string, sealed: string): string | undefined {
  const [version, nonce, box] = sealed.split('.');
  if (version !== 'v1' || !nonce || !box) return undefined;
  try {
    const bytes = Buffer.from(box, 'base64url');
    if (bytes.length < 16) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secret, purpose), Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
