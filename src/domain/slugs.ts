/**
 * @module domain/slugs
 * Slugs of rooms, boards and queues share one namespace because their
 * redirect URLs all live at `{redirect_host}/<slug>`; the front end's own
 * paths must therefore never be claimable.
 *
 * A slug an organization gives up (a board or queue renamed or deleted)
 * stays reserved to it for SLUG_RESERVATION_DAYS: its old links say "this
 * link has moved" or "has ended" instead of leading into whatever another
 * organization would put there, and only the same organization may take
 * it again meanwhile (docs/api.md, "Slugs").
 */
import { type FieldError } from './errors.ts';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MIN = 3;
export const SLUG_MAX = 64;
/** How long a given-up slug stays its organization's, unless SLUG_RESERVATION_DAYS says longer. */
export const SLUG_RESERVATION_DEFAULT_DAYS = 365;
export const SLUG_RESERVATION_MIN_DAYS = 90;

/** Until when a slug given up at `at` stays reserved. */
export function slugReservedUntil(at: Date, days: number | undefined): Date {
  return new Date(at.getTime() + (days ?? SLUG_RESERVATION_DEFAULT_DAYS) * 86_400_000);
}

/** Paths the front end and API use at the top level of `{redirect_host}`. */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'api', 'm', 'meetings', 'meeting', 'rooms', 'room', 'boards', 'board', 'queues', 'queue',
  'dashboard', 'static', 'assets', 'public', 'health', 'ready', 'ws', 'docs', 'openapi',
  'admin', 'login', 'logout', 'signup', 'account', 'settings', 'app', 'www', 'favicon-ico',
  'robots-txt', 'v1', 'v2', 'v3', 'join', 'embed', 'help', 'status', 'metrics', 'foyer', 'sdk',
]);

/** Whether `value` has the shape of a slug (length and characters); says nothing of reservation. */
export function isSlugShaped(value: string): boolean {
  return value.length >= SLUG_MIN && value.length <= SLUG_MAX && SLUG.test(value);
}

/** Returns the problem with `slug`, or undefined when it is a valid, unreserved slug. */
export function slugProblem(slug: string, field = 'slug'): FieldError | undefined {
  if (slug.length < SLUG_MIN || slug.length > SLUG_MAX) {
    return { field, message: `A slug has ${SLUG_MIN} to ${SLUG_MAX} characters.` };
  }
  if (!SLUG.test(slug)) {
    return { field, message: 'A slug has lowercase letters, digits and single hyphens between them.' };
  }
  if (RESERVED_SLUGS.has(slug)) {
    return { field, message: `The slug "${slug}" is reserved.` };
  }
  return undefined;
}

/** Derives a slug from a display name ("Acme Clinic" → "acme-clinic"). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
}
