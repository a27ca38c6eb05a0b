/**
 * @module domain/allowed-origins
 * The origins an organization allows to embed its meeting, waiting and
 * console pages: they become the pages' CSP `frame-ancestors` (with
 * 'self'), and the only windows those pages post events to or take
 * commands from (public/js/lib/embed-bridge.js). Set through the API
 * (`/v3/allowed-origins`), by ADMINs in the dashboard and by the operator
 * (`foyer org origins`); every change is recorded.
 *
 * Each entry is one exact origin: `https://host[:port]`, or `http://` on
 * a loopback host (a developer's machine). No wildcards and no paths:
 * a message is always addressed to a named origin, never to `*`.
 * An empty list leaves framing to the operator's FRAME_ANCESTORS and
 * posts no events at all.
 */
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { ValidationError, type FieldError } from './errors.ts';
import type { KeyPorts } from './key-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import { recordChange } from './organization-changes.ts';
import { authorize } from './policies.ts';
import { isLoopback } from './sso.ts';

export const MAX_ALLOWED_ORIGINS = 50;
const MAX_ORIGIN_CHARS = 200;

/** The origin `raw` names, normalized (lower case, default port dropped), or the reason it is not one. */
export function parseOrigin(raw: string): { origin: string } | { problem: string } {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'An origin is a scheme and a host, such as https://portal.example.org.' };
  }
  if (value.length > MAX_ORIGIN_CHARS) return { problem: `An origin has at most ${MAX_ORIGIN_CHARS} characters.` };
  if (value.includes('*')) return { problem: 'Wildcards are not allowed: list each origin.' };
  if (url.username || url.password || url.search || url.hash || !/^[a-z]+:\/\/[^/]+\/?$/i.test(value)) {
    return { problem: 'An origin has no path, query or fragment: https://portal.example.org, not a page of it.' };
  }
  // The origin goes into a CSP header (frame-ancestors): only host name characters, never `;`, `,` or quotes.
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i.test(url.hostname)) return { problem: 'An origin is a scheme and a host, such as https://portal.example.org.' };
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) return { problem: 'An origin must use https (http only for localhost, 127.0.0.1 or [::1]).' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'An origin must use https.' };
  return { origin: url.origin };
}

/** The organization's allowed origins, as the pages use them (no actor: every visitor of a page gets its policy). */
export async function allowedOriginsOf(ctx: DomainContext<MemberPorts & KeyPorts>, organizationId: string): Promise<string[]> {
  return ctx.store.listAllowedOrigins(organizationId);
}

export async function getAllowedOrigins(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor): Promise<string[]> {
  authorize(actor, 'origins.manage');
  return ctx.store.listAllowedOrigins(actor.organization.id);
}

/**
 * Replaces the organization's allowed origins with `values` (duplicates
 * after normalizing count once). Every bad entry is reported, as
 * `origins.<index>`, and nothing changes. Returns the new list.
 */
export async function setAllowedOrigins(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, values: readonly string[]): Promise<string[]> {
  authorize(actor, 'origins.manage');
  const errors: FieldError[] = [];
  const origins: string[] = [];
  values.forEach((value, index) => {
    const parsed = parseOrigin(value);
    if ('problem' in parsed) errors.push({ field: `origins.${index}`, message: parsed.problem });
    else if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
  });
  if (origins.length > MAX_ALLOWED_ORIGINS) errors.push({ field: 'origins', message: `At most ${MAX_ALLOWED_ORIGINS} origins.` });
  if (errors.length) throw new ValidationError(errors);
  return transact(ctx, async (tx) => {
    const before = await tx.store.listAllowedOrigins(actor.organization.id);
    const added = origins.filter((o) => !before.includes(o));
    const removed = before.filter((o) => !origins.includes(o));
    if (added.length === 0 && removed.length === 0) return before;
    await tx.store.replaceAllowedOrigins(actor.organization.id, origins, tx.now());
    await recordChange(tx, actor, 'allowed_origins.changed', null, { added, removed });
    raise(tx, { type: 'organization.origins_changed', organizationId: actor.organization.id, at: tx.now() });
    return tx.store.listAllowedOrigins(actor.organization.id);
  });
}

/** The CSP `frame-ancestors` of an organization's pages: 'self' and its origins, or the operator's default when it lists none. */
export function frameAncestorsFor(origins: readonly string[], fallback: string): string {
  return origins.length ? ["'self'", ...origins].join(' ') : fallback;
}
