/**
 * @module web/dashboard/headers
 * Security headers of every dashboard page: a strict CSP (scripts and
 * styles only from this origin, nothing inline), no framing at all, no
 * referrer beyond this origin, no MIME sniffing, and no caching (pages
 * show an organization's data and, once, a key's secret).
 */
import type { FastifyReply } from 'fastify';

/** `sockets`: extra connect-src sources for a page that opens the signalling socket (a console). */
export function dashboardHeaders(reply: FastifyReply, { calls = false, sockets = '' }: { calls?: boolean; sockets?: string } = {}): void {
  reply.header(
    'content-security-policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      // A console holds calls: its camera and the client's video, and its own socket.
      ...(calls ? ["media-src 'self' blob: mediastream:"] : []),
      `connect-src 'self'${calls ? sockets : ''}`,
      "font-src 'self'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  reply.header('referrer-policy', 'same-origin');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('cache-control', 'no-store');
  reply.header('permissions-policy', calls ? 'camera=(self), microphone=(self), display-capture=(self), geolocation=()' : 'camera=(), microphone=(), geolocation=()');
}
