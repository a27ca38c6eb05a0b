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

let lastMs = 0;
let counter = 0;

/**
 * A UUID (version 7) whose order is the order of creation: 48 bits of
 * milliseconds, then a counter that this process increments within one
 * millisecond, then randomness. For records read in the order they were
 * written (the record of organization changes), where a random id would
 * order same-millisecond ones arbitrarily.
 */
export function newOrderedId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = randomInt(0x400);
  } else counter = (counter + 1) & 0xfff;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
