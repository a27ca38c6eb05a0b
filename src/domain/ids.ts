/**
 * @module domain/ids
 * Identifiers and random tokens. All randomness comes from node:crypto's CSPRNG.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function newId(): string {
  return randomUUID();
}

export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from [0-9A-Za-z] (no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** 256 random bits, base64url: the API secret. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}
