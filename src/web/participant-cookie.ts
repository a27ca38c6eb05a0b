/**
 * @module web/participant-cookie
 * Who a browser is across reconnects, for a meeting's host: the meeting
 * pages give each browser a random participant cookie, and the signalling
 * socket reads it (hashed) so that a participant the host removed is
 * recognised when they come back with the same link. It is not an
 * identity proof (a private window is a new browser); members are
 * recognised by their session instead.
 *
 * Over https it is `SameSite=None; Secure; Partitioned` (CHIPS): a page
 * embedded in another site's iframe keeps it too (in a jar of that site
 * only, so it tracks nobody across sites). Over plain http browsers
 * refuse such a cookie, and a cross-site frame goes without one.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const PARTICIPANT_COOKIE = 'foyer_participant';
const MAX_AGE_SECONDS = 30 * 24 * 3600;
const SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/** Gives the browser its participant cookie when it has none. */
export function ensureParticipantCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string): void {
  if (SHAPE.test(request.cookies[PARTICIPANT_COOKIE] ?? '')) return;
  const secure = publicUrl.startsWith('https:');
  reply.setCookie(PARTICIPANT_COOKIE, randomBytes(18).toString('base64url'), {
    path: '/',
    httpOnly: true,
    ...(secure ? { sameSite: 'none' as const, secure: true, partitioned: true } : { sameSite: 'lax' as const, secure: false }),
    maxAge: MAX_AGE_SECONDS,
  });
}

/** The hash of the browser's participant cookie, or null without a well-formed one. */
export function browserKeyOf(request: FastifyRequest): string | null {
  const value = request.cookies[PARTICIPANT_COOKIE];
  return value && SHAPE.test(value) ? createHash('sha256').update(value).digest('base64url') : null;
}
