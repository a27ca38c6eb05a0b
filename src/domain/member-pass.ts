/**
 * @module domain/member-pass
 * A member's pass to one meeting: what makes the redirect URL a server is
 * given for a member (accepting a waiting client for them through the API)
 * *that member's* link. Opened without a dashboard session (in the
 * organization's own application, say), the page joins as that member:
 * the consultation's host, and the member whose joining starts the client
 * call. It is worth nothing elsewhere: bound to one meeting and one member,
 * valid for SESSION_MAX_HOURS, and checked against the member as they are
 * when it is used (a removed member's pass opens nothing).
 *
 * `<userId>.<expires, epoch seconds>.<HMAC-SHA256 over meeting, member and
 * expiry>`, keyed from API_SECRET_PEPPER: nothing is stored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { memberActor, type Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { isUuidV4 } from './ids.ts';
import type { MemberPorts } from './member-ports.ts';
import type { PlacePorts } from './place-ports.ts';

const SHAPE = /^([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function mac(ctx: DomainContext<MemberPorts>, meetingId: string, userId: string, expires: number): string {
  const key = createHmac('sha256', ctx.secretPepper).update('foyer/member-pass').digest();
  return createHmac('sha256', key).update(`${meetingId}|${userId}|${expires}`).digest('base64url');
}

/** A pass for `userId` to `meetingId`. */
export function issueMemberPass(ctx: DomainContext<MemberPorts>, meetingId: string, userId: string): string {
  const expires = Math.floor(ctx.now().getTime() / 1000) + ctx.members.sessionMaxHours * 3600;
  return `${userId}.${expires}.${mac(ctx, meetingId, userId, expires)}`;
}

/** A member's own way into a meeting: their pass, and the name their pre-join screen starts with (null: the member is gone). */
export async function memberEntry(
  ctx: DomainContext<MemberPorts>,
  organizationId: string,
  meetingId: string,
  userId: string,
): Promise<{ pass: string; displayName: string | null }> {
  const member = await ctx.store.findUser(organizationId, userId);
  return { pass: issueMemberPass(ctx, meetingId, userId), displayName: member?.fullName ?? null };
}

/** The member a pass admits to `meetingId` now, or null when it is not a valid pass for it (or the member is gone). */
export async function memberOfPass(ctx: DomainContext<MemberPorts & PlacePorts>, pass: string | null | undefined, meetingId: string): Promise<Actor | null> {
  const match = pass ? SHAPE.exec(pass) : null;
  if (!match || !isUuidV4(meetingId)) return null;
  const [, userId, expiresText, given] = match as unknown as [string, string, string, string];
  const expires = Number(expiresText);
  if (expires * 1000 <= ctx.now().getTime()) return null;
  // Both are 43 base64url characters (the shape says so of the one given).
  if (!timingSafeEqual(Buffer.from(mac(ctx, meetingId.toLowerCase(), userId, expires)), Buffer.from(given))) return null;
  const meeting = await ctx.store.live.findMeetingRecord({ id: meetingId.toLowerCase() });
  const user = meeting && (await ctx.store.findUser(meeting.organizationId, userId));
  const organization = user && (await ctx.store.findOrganization(user.organizationId));
  return user && organization ? memberActor(organization, user) : null;
}
