/**
 * @module web/dashboard/session
 * The member behind a request: the session cookie (an opaque random value;
 * the database keeps only its hash, see domain/sign-in.ts) read once per
 * request into `request.member`, and the guard that sends a visitor
 * without a session to the sign-in page. The cookie is HttpOnly,
 * SameSite=Lax, Secure whenever PUBLIC_URL is https, and lives until the
 * browser closes (the server ends the session itself when it expires).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../domain/actors.ts';
import type { DomainContext } from '../../domain/context.ts';
import { currentMember } from '../../domain/sign-in.ts';
import type { MemberSession } from '../../domain/types.ts';

export const SESSION_COOKIE = 'foyer_session';
export const DASHBOARD = '/dashboard';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member, or null; set by the dashboard's session hook. */
    member: { actor: Actor; session: MemberSession } | null;
  }
}

/** Thrown by `requireMember` when nobody is signed in; the dashboard's error handler sends them to sign in. */
export class SignInRequired extends Error {
  override name = 'SignInRequired';
}

export function sessionCookieOptions(publicUrl: string) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: publicUrl.startsWith('https:') };
}

export function installSession(app: FastifyInstance, ctx: DomainContext): void {
  app.decorateRequest('member', null);
  app.addHook('onRequest', async (request) => {
    request.member = (await currentMember(ctx, request.cookies[SESSION_COOKIE])) ?? null;
  });
}

/** The signed-in member acting; every page and action behind sign-in starts here. */
export function requireMember(request: FastifyRequest): Actor {
  if (!request.member) throw new SignInRequired();
  return request.member.actor;
}

export function setSessionCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  reply.setCookie(SESSION_COOKIE, token, sessionCookieOptions(publicUrl));
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(publicUrl));
}

/**
 * What binds a form's CSRF token to its session, so a token made for one
 * member's session is refused in another's (and one made before signing in
 * is refused after).
 */
export function csrfUserInfo(request: FastifyRequest): string {
  return request.member ? `member:${request.member.session.idHash}` : 'visitor';
}

/** Where to go after signing in: a dashboard path the visitor asked for, never another site. */
export function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/dashboard(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&_-]*)?$/.test(value) ? value : DASHBOARD;
}
