/**
 * @module web/headers
 * Security headers of the meeting pages. Framing is allowed for the origins
 * in FRAME_ANCESTORS (CSP `frame-ancestors`; no X-Frame-Options, which
 * cannot express a list), and the page may use camera, microphone and
 * screen capture itself, which an embedding iframe grants with
 * `allow="camera; microphone; display-capture"`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * ` ws://host wss://host` for the request's own host (or nothing for a host
 * header that is not a plain host): the signalling socket is same-origin,
 * and ws:/wss: are named because older Safari does not match them with 'self'.
 */
export function socketSources(request: FastifyRequest): string {
  const host = /^[A-Za-z0-9.\-:[\]]+$/.test(request.headers.host ?? '') ? request.headers.host : undefined;
  return host ? ` ws://${host} wss://${host}` : '';
}

export function pageHeaders(reply: FastifyReply, request: FastifyRequest, frameAncestors: string): void {
  const sockets = socketSources(request);
  reply.header(
    'content-security-policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob: mediastream:",
      `connect-src 'self'${sockets}`,
      "base-uri 'none'",
      "form-action 'self'",
      `frame-ancestors ${frameAncestors}`,
    ].join('; '),
  );
  reply.header('permissions-policy', 'camera=(self), microphone=(self), display-capture=(self), fullscreen=(self)');
  // Meeting ids and short codes are the keys to a meeting: never leak them to other sites.
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', 'no-store');
}
