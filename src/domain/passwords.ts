/**
 * @module domain/passwords
 * Members' passwords: what is accepted, and how it is stored.
 *
 * Rules (NIST SP 800-63B): at least 10 characters, at most 256 (long
 * passphrases welcome), not one of the 49,000 most common passwords (the
 * list zxcvbn ships), not the member's email or name. No composition rules.
 * Passwords are compared after Unicode NFKC normalization, so the same
 * phrase typed on another keyboard still matches.
 *
 * Why scrypt: it is memory-hard (each guess needs N × r × 128 bytes, 128 MiB
 * with the defaults), so guessing on GPUs is expensive, and it is built into
 * Node (no native addon to build, unlike argon2, which Node 20 lacks). The
 * parameters are OWASP's (N = 2^17, r = 8, p = 1) and stored with each hash,
 * so raising the cost later keeps old hashes verifiable; a sign-in with a
 * hash made at a lower cost stores a new one. The work runs in libuv's
 * thread pool, off the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { normalizeEmail } from './text.ts';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
/** log2 of scrypt's N by default; PASSWORD_HASH_COST may lower it (to a floor of 14) for tests or small machines. */
export const DEFAULT_PASSWORD_COST = 17;

const KEY_LENGTH = 32;
const R = 8;
const P = 1;

let common: ReadonlySet<string> | undefined;

/** Loaded on first use: most processes (the CLI, the API) never check a password. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((p: string) => p.toLowerCase()));
  return common;
}

function normalize(password: string): string {
  return password.normalize('NFKC');
}

/** What is wrong with a new password, or undefined when it is acceptable. */
export function passwordProblem(password: string, member: { email: string; fullName: string }): string | undefined {
  const length = [...normalize(password)].length;
  if (length < PASSWORD_MIN) return `A password has at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `A password has at most ${PASSWORD_MAX} characters.`;
  const lower = normalize(password).toLowerCase();
  if (commonPasswords().has(lower)) return 'This password is one of the most common ones; choose another.';
  if (lower === normalizeEmail(member.email) || lower === member.fullName.trim().toLowerCase()) {
    return 'A password must not be your email or your name.';
  }
  return undefined;
}

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  const N = 2 ** cost;
  const options: ScryptOptions = { N, r: R, p: P, maxmem: 128 * N * R * 2 };
  return new Promise((resolve, reject) =>
    scrypt(normalize(password), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$<cost>$<salt>$<hash>`, salt and hash in base64url. */
export async function hashPassword(password: string, cost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface Parsed {
  cost: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | undefined {
  const [scheme, cost, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !/^\d+$/.test(cost) || !salt || !key) return undefined;
  return { cost: Number(cost), salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when `stored` was made at a lower cost than `cost` now asks for. */
export function needsRehash(stored: string, cost: number): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost < cost;
}

/**
 * The same work as verifying a password, for an email nobody has: a wrong
 * email and a wrong password then take equally long.
 */
export async function spendVerification(password: string, cost: number): Promise<void> {
  await derive(password, Buffer.alloc(16), cost);
}
