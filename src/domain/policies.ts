/**
 * @module domain/policies
 * What each kind of actor may do, one rule per action, decided here and
 * nowhere else: commands call `authorize` before they read or write, so no
 * edge (API, dashboard, CLI) can forget a check by hiding a button.
 *
 * | action                       | API key | USER | ADMIN | operator |
 * |------------------------------|---------|------|-------|----------|
 * | read the organization        | yes     | yes  | yes   | yes      |
 * | meetings, rooms, boards, queues | yes  | yes  | yes   | yes      |
 * | serve a board or queue's clients | no   | yes* | yes*  | no       |
 * | serve them for a member (API) | yes     | no   | no    | yes      |
 * | who served whom (the audit)  | no      | no   | yes   | yes      |
 * | API keys                     | no      | no   | yes   | yes      |
 * | webhook endpoints            | yes     | no   | yes   | yes      |
 * | request usage                | no      | no   | yes   | yes      |
 * | members: add, invite, role, remove | no | no  | yes   | yes      |
 * | the record of those changes  | no      | no   | yes   | yes      |
 * | allowed embedding origins    | yes     | no   | yes   | yes      |
 * | quotas, single sign-on       | no      | no   | no    | yes      |
 *
 * (*) only a member listed on that board or queue (checked by domain/waiting).
 *
 * A meeting in progress is run by its host (see `isHost`): the
 * member named by `ownerEmail`, or, for a meeting without an owner, any
 * ADMIN of its organization. Only a member's own session makes them admin,
 * never what a browser sends.
 *
 * API keys do not manage keys or read usage: the spec gives the API no
 * such endpoints, and a leaked key must not be able to mint more keys.
 */
import type { Actor } from './actors.ts';
import { ForbiddenError } from './errors.ts';
import type { Meeting } from './types.ts';

export type Action =
  | 'organization.read'
  | 'meeting.manage'
  | 'room.manage'
  | 'space.manage'
  | 'space.serve'
  | 'space.dispatch'
  | 'space.audit'
  | 'apiKey.manage'
  | 'webhook.manage'
  | 'usage.read'
  | 'quota.manage'
  | 'user.manage'
  | 'organization.audit'
  | 'origins.manage'
  | 'sso.manage';

const EVERYONE: ReadonlySet<Actor['kind']> = new Set(['api_key', 'member', 'operator']);

function isAdmin(actor: Actor): boolean {
  return actor.kind === 'operator' || (actor.kind === 'member' && actor.user.role === 'ADMIN');
}

const RULES: Record<Action, (actor: Actor) => boolean> = {
  'organization.read': (actor) => EVERYONE.has(actor.kind),
  'meeting.manage': (actor) => EVERYONE.has(actor.kind),
  'room.manage': (actor) => EVERYONE.has(actor.kind),
  'space.manage': (actor) => EVERYONE.has(actor.kind),
  'space.serve': (actor) => actor.kind === 'member',
  // The organization's server accepts, declines and takes the next client on behalf of a space member.
  'space.dispatch': (actor) => actor.kind === 'api_key' || actor.kind === 'operator',
  'space.audit': isAdmin,
  'apiKey.manage': isAdmin,
  // The API manages endpoints as it manages meetings (the organization's servers are the receivers).
  'webhook.manage': (actor) => actor.kind !== 'member' || isAdmin(actor),
  'usage.read': isAdmin,
  'quota.manage': (actor) => actor.kind === 'operator',
  // Members manage their organization's members; an API key does not (a leaked key must not add a member).
  'user.manage': isAdmin,
  'organization.audit': isAdmin,
  // Embedding is configured by the organization's servers as webhooks are.
  'origins.manage': (actor) => actor.kind !== 'member' || isAdmin(actor),
  'sso.manage': (actor) => actor.kind === 'operator',
};

export function can(actor: Actor, action: Action): boolean {
  return RULES[action](actor);
}

/** Throws `ForbiddenError` unless `actor` may do `action`. */
export function authorize(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw new ForbiddenError();
}

/** Whether `actor` administers `meeting` in the call: its owner; for a meeting without one, any ADMIN of its organization. */
export function isHost(actor: Actor | null, meeting: Pick<Meeting, 'organizationId' | 'ownerUserId'>): boolean {
  if (!actor || actor.kind !== 'member' || actor.organization.id !== meeting.organizationId) return false;
  return meeting.ownerUserId ? actor.user.id === meeting.ownerUserId : actor.user.role === 'ADMIN';
}

/** Throws `ForbiddenError` unless `actor` hosts `meeting`. */
export function authorizeHost(actor: Actor | null, meeting: Pick<Meeting, 'organizationId' | 'ownerUserId'>): asserts actor is Extract<Actor, { kind: 'member' }> {
  if (!isHost(actor, meeting)) throw new ForbiddenError('Only the host of this meeting may do this.');
}
