/**
 * @module domain/resume-tokens
 * The tokens that let a participant take their place back after a dropped
 * socket (domain/resuming.ts): 256 random bits, stored only as their
 * SHA-256, one per participant, handed out in the unit of work that
 * entered them (domain/joining.ts) and again on every resume.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DomainContext } from './context.ts';
import type { PlacePorts } from './place-ports.ts';

/** The longest token accepted: a longer one is no token of ours, and is not hashed. */
export const RESUME_TOKEN_MAX = 64;

export function newResumeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOf(token) };
}

export function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new resume token for a participant who just entered; only its hash is kept. */
export async function issueResume(ctx: DomainContext<PlacePorts>, participantId: string): Promise<string> {
  const { token, hash } = newResumeToken();
  await ctx.store.live.setResumeHash(participantId, hash);
  return token;
}
