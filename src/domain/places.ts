/**
 * @module domain/places
 * Where participants meet and who may enter: a meeting by its link, or a
 * room or board by its slug. The rules of entering are stated here once;
 * the meeting pages ask this module, and joining (joining.ts) applies it.
 */
import { raise, transact, type DomainContext } from './context.ts';
import { ValidationError } from './errors.ts';
import { isUuidV4 } from './ids.ts';
import { liveClock, meetingState, type LiveContext, type MeetingState } from './lifecycle.ts';
import type { MeetingPorts, ReleasedSlug } from './meeting-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import type { PlacePorts, SlugPlace } from './place-ports.ts';
import type { MediaState, Participant, PlaceRef } from './presence.ts';
import { isSlugShaped } from './slugs.ts';
import type { Meeting } from './types.ts';

export const DISPLAY_NAME_MAX = 64;

/** Trimmed, 1 to 64 characters, no control characters. */
export function checkDisplayName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
  // eslint-disable-next-line no-control-regex
  if (name.length === 0 || [...name].length > DISPLAY_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
    throw ValidationError.field('name', `A display name has 1 to ${DISPLAY_NAME_MAX} characters.`);
  }
  return name;
}

/** Where a participant asks to go: a meeting by id, or a room or board by slug. */
export type JoinTarget = { meetingId: string } | { slug: string };

export type JoinRefusal = 'not_found' | 'closed' | 'deleted' | 'inactive' | 'waiting_list';

/**
 * Whether a slug's place can be entered directly: rooms always; boards
 * when active and without a waiting list. Queues and waiting-list boards
 * are entered through their waiting list.
 */
export function slugAdmission(place: SlugPlace): 'enter' | 'inactive' | 'waiting_list' {
  if (place.kind === 'room') return 'enter';
  if (place.kind === 'queue' || place.hasWaitingList) return 'waiting_list';
  return place.isActive ? 'enter' : 'inactive';
}

const SHORT_CODE = /^[0-9A-Za-z]{1,32}$/;

/** The meeting behind a link (by id or short code), deleted ones included, with its state; undefined when there is none. */
export async function meetingAtLink(
  ctx: DomainContext<PlacePorts>,
  by: { id: string } | { shortCode: string },
): Promise<{ meeting: Meeting; state: MeetingState } | undefined> {
  let meeting: Meeting | undefined;
  if ('id' in by) meeting = isUuidV4(by.id) ? await ctx.store.live.findMeetingRecord({ id: by.id.toLowerCase() }) : undefined;
  else meeting = SHORT_CODE.test(by.shortCode) ? await ctx.store.live.findMeetingRecord({ shortCode: by.shortCode }) : undefined;
  return meeting && { meeting, state: meetingState(meeting, ctx.now()) };
}

/**
 * What a call page says about where it leads: the organization's name and,
 * for a consultation, the name of the clinician who owns it.
 */
export async function placeContext(ctx: DomainContext<MemberPorts>, organizationId: string, meeting?: Meeting): Promise<{ organization: string | null; hostName: string | null }> {
  const [organization, owner] = await Promise.all([
    ctx.store.findOrganization(organizationId),
    meeting?.type === 'CONSULTATION' && meeting.ownerUserId ? ctx.store.findUser(organizationId, meeting.ownerUserId) : undefined,
  ]);
  return { organization: organization?.name ?? null, hostName: owner?.fullName ?? null };
}

/** The room, board or queue at a slug, across organizations. */
export async function placeAtSlug(ctx: DomainContext<PlacePorts>, slug: string): Promise<SlugPlace | undefined> {
  return isSlugShaped(slug) ? ctx.store.live.findSlugPlace(slug) : undefined;
}

/** A slug nothing is at now but that an organization gave up and still holds (domain/slugs.ts): where its place moved, or that it ended. */
export async function releasedSlugAt(ctx: DomainContext<MeetingPorts>, slug: string): Promise<ReleasedSlug | undefined> {
  return isSlugShaped(slug) ? ctx.store.findReleasedSlug(slug, ctx.now()) : undefined;
}

/** Removes a participant, raising `participant.left`; the place gets its deadline when it is now empty everywhere. */
export async function leavePlace(ctx: LiveContext<PlacePorts>, connectionId: string): Promise<PlaceRef | undefined> {
  const clock = liveClock(ctx);
  return transact(ctx, async (tx) => {
    const place = await tx.store.live.leave(connectionId, clock);
    if (!place) return undefined;
    const organizationId = await tx.store.live.findPlaceOrganization(place);
    if (organizationId) raise(tx, { type: 'participant.left', organizationId, place, participantId: connectionId, at: clock.at });
    return place;
  });
}

export async function participantsOf(ctx: LiveContext<PlacePorts>, place: PlaceRef): Promise<Participant[]> {
  return ctx.store.live.listPresent(place, liveClock(ctx).staleBefore);
}

/** A participant's microphone, camera and screen as they announce them. */
export async function updateMedia(ctx: LiveContext<PlacePorts>, connectionId: string, media: MediaState): Promise<void> {
  await ctx.store.live.setMedia(connectionId, media);
}

/** The participant's member rights ended (signed out, removed): they stay, no longer the host. */
export async function dropHost(ctx: LiveContext<PlacePorts>, connectionId: string): Promise<void> {
  await ctx.store.live.dropHost(connectionId);
}
