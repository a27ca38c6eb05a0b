/**
 * @module web/dashboard/headers
 * Security headers of every dashboard page: a strict CSP (scripts and
 * styles only from this origin, nothing inline), no framing (except a
 * console, by the organization's allowed origins), no
 * referrer beyond this origin, no MIME sniffing, and no caching (pages
 * show an organization's data and, once, a key's secret).
 */
import type { FastifyReply } from 'fastify';

export interface HeaderOptions {
  /**
   * Extra CSP `form-action` sources: browsers check a form's redirects
   * against it, so the page whose form leads on to an identity provider
   * names where that may be.
   */
  formAction?: string[];
  /** A console holds calls: its camera and the client's video, and its own socket. */
  calls?: boolean;
  /** Extra connect-src sources for a page that opens the signalling socket (a console); used with `calls`. */
  sockets?: string;
  /** Origins that may frame the page (a console embedded in the organization's application); none by default. */
  frameAncestors?: readonly string[];
}

export function dashboardHeaders(reply: FastifyReply, options: HeaderOptions = {}): void {
  reply.header(
    'content-security-policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      // A console holds calls: its camera and the client's video, and its own socket.
      ...(options.calls ? ["media-src 'self' blob: mediastream:"] : []),
      `connect-src 'self'${options.calls ? (options.sockets ?? '') : ''}`,
      "font-src 'self'",
      "base-uri 'none'",
      ["form-action 'self'", ...(options.formAction ?? [])].join(' '),
      options.frameAncestors?.length ? `frame-ancestors 'self' ${options.frameAncestors.join(' ')}` : "frame-ancestors 'none'",
    ].join('; '),
  );
  reply.header('referrer-policy', 'same-origin');
  reply.header('x-content-type-options', 'nosniff');
  // X-Frame-Options cannot name a list; CSP frame-ancestors says it for every browser that has it.
  if (!options.frameAncestors?.length) reply.header('x-frame-options', 'DENY');
  reply.header('cache-control', 'no-store');
  reply.header(
    'permissions-policy',
    options.calls ? 'camera=(self), microphone=(self), display-capture=(self), geolocation=()' : 'camera=(), microphone=(), geolocation=()',
  );
}
