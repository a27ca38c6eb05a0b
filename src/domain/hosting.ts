/**
 * @module domain/hosting
 * The host (see `isHost` in policies.ts) runs the call:
 * ends it for everyone, removes a participant, asks one to mute, locks and
 * unlocks it, and lets in or turns away those who knock. Each command
 * checks the host on the server, writes its state to the database (so
 * every instance agrees) and raises an event (the realtime side fans it out
 * over the bus; webhooks may report it).
 *
 * Who enters directly and who knocks (`admissionOf`):
 * - the host always enters; the owner's first entry ends the default
 *   lock of a consultation (`until_owner` becomes `open`, see joining.ts);
 * - a participant removed from this meeting knocks, whatever the lock:
 *   they come back only if the host lets them in again;
 * - anyone else knocks while the meeting is `locked` or `until_owner`.
 * A knock is decided one by one: unlocking changes what happens to new
 * arrivals, and those already knocking are still let in or turned away.
 */
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import type { HostingPorts, Knock } from './hosting-ports.ts';
import { liveClock, meetingState, type LiveContext } from './lifecycle.ts';
import type { MeetingPorts } from './meeting-ports.ts';
import { endMeeting } from './meetings.ts';
import type { PlacePorts } from './place-ports.ts';
import { authorizeHost, isHost } from './policies.ts';
import type { Participant, PlaceRef } from './presence.ts';
import type { Meeting } from './types.ts';
import { hangUp } from './waiting/calls.ts';
import type { WaitingListPorts } from './waiting/ports.ts';

export type Admission = { kind: 'enter'; host: boolean } | { kind: 'knock'; wasRemoved: boolean };

/** Whether someone arriving at an open meeting enters or knocks. */
export async function admissionOf(ctx: DomainContext<HostingPorts>, meeting: Meeting, who: { actor: Actor | null; guestKey: string | null }): Promise<Admission> {
  if (isHost(who.actor, meeting)) return { kind: 'enter', host: true };
  if (who.guestKey && (await ctx.store.isRemoved(meeting.id, who.guestKey))) return { kind: 'knock', wasRemoved: true };
  if (meeting.lock !== 'open') return { kind: 'knock', wasRemoved: false };
  return { kind: 'enter', host: false };
}

/** The knocker went away, or was let in and entered: the knock is forgotten. */
export async function withdrawKnock(ctx: DomainContext<HostingPorts & PlacePorts>, knockId: string): Promise<void> {
  await transact(ctx, async (tx) => {
    const gone = await tx.store.deleteKnock(knockId);
    if (!gone || gone.state !== 'knocking') return;
    const organizationId = await tx.store.live.findPlaceOrganization({ kind: 'meeting', id: gone.meetingId });
    if (organizationId) raise(tx, { type: 'meeting.knock.withdrawn', organizationId, meetingId: gone.meetingId, knockId, at: tx.now() });
  });
}

/** Those knocking at a meeting now (on live instances), oldest first. Only for its host. */
export async function knocksOf(ctx: LiveContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string): Promise<Knock[]> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  return ctx.store.listKnocks(meeting.id, liveClock(ctx).staleBefore);
}

/** Lets a knocker in (raising `participant.admitted`); a removed participant let in is no longer removed. */
export async function letIn(ctx: DomainContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string, knockId: string): Promise<Knock> {
  return decide(ctx, actor, meetingId, knockId, 'admitted');
}

/** Turns a knocker away (raising `participant.turned_away`). */
export async function turnAway(ctx: DomainContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string, knockId: string): Promise<Knock> {
  return decide(ctx, actor, meetingId, knockId, 'turned_away');
}

async function decide(ctx: DomainContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string, knockId: string, state: 'admitted' | 'turned_away'): Promise<Knock> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  return transact(ctx, async (tx) => {
    const at = tx.now();
    const decided = await tx.store.decideKnock(meeting.id, knockId, state, at);
    if (!decided) throw new NotFoundError('knock', 'Nobody with this id is knocking (any more).');
    if (state === 'admitted' && decided.guestKey) await tx.store.deleteRemoval(meeting.id, decided.guestKey);
    const event = { organizationId: meeting.organizationId, meetingId: meeting.id, knockId, displayName: decided.displayName, ...byOf(actor), at };
    raise(tx, state === 'admitted' ? { type: 'participant.admitted', ...event } : { type: 'participant.turned_away', ...event });
    return decided;
  });
}

/** Locks (arrivals knock) or unlocks the meeting, raising `meeting.locked` or `meeting.unlocked` when it changed. */
export async function setLocked(ctx: DomainContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string, locked: boolean): Promise<boolean> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  return transact(ctx, async (tx) => {
    const changed = await tx.store.setMeetingLock(meeting.id, locked ? 'locked' : 'open');
    const event = { organizationId: meeting.organizationId, meetingId: meeting.id, ...byOf(actor), at: tx.now() };
    if (changed) raise(tx, locked ? { type: 'meeting.locked', ...event } : { type: 'meeting.unlocked', ...event });
    return changed;
  });
}

/**
 * Turns the meeting's chat off (or on again) for everyone (raising
 * `meeting.chat_changed`, not a webhook): while it is off the server
 * refuses every chat message. Returns whether it changed.
 */
export async function setChatOff(ctx: DomainContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string, off: boolean): Promise<boolean> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  return transact(ctx, async (tx) => {
    const changed = await tx.store.setMeetingChat(meeting.id, off);
    if (changed) raise(tx, { type: 'meeting.chat_changed', organizationId: meeting.organizationId, meetingId: meeting.id, chatOff: off, ...byOf(actor), at: tx.now() });
    return changed;
  });
}

/**
 * Whether the meeting's chat is off, as stored (false for no such meeting).
 * Instances hold it in memory from `meeting.chat_changed`; after messages
 * between instances may have been lost, they read it again.
 */
export async function chatOffOf(ctx: DomainContext<PlacePorts>, meetingId: string): Promise<boolean> {
  return (await ctx.store.live.findMeetingRecord({ id: meetingId }))?.chatOff ?? false;
}

/**
 * Removes a participant (raising `participant.removed` and
 * `participant.left`): they leave at once and, recognised by their member
 * id or their browser, knock if they come back during this meeting.
 */
export async function removeParticipant(ctx: LiveContext<HostingPorts & PlacePorts>, actor: Actor | null, meetingId: string, participantId: string): Promise<Participant> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  const target = await presentIn(ctx, meeting, participantId);
  if (target.host) throw ValidationError.field('participantId', 'The host cannot be removed.');
  const clock = liveClock(ctx);
  await transact(ctx, async (tx) => {
    if (target.guestKey) await tx.store.insertRemoval(meeting.id, target.guestKey, clock.at);
    const place = await tx.store.live.leave(target.id, clock);
    if (!place) throw new NotFoundError('participant', 'This participant has already left.');
    const base = { organizationId: meeting.organizationId, at: clock.at };
    raise(tx, { type: 'participant.removed', ...base, meetingId: meeting.id, participantId: target.id, displayName: target.displayName, ...byOf(actor) });
    raise(tx, { type: 'participant.left', ...base, place, participantId: target.id });
  });
  return target;
}

/** Asks a participant to mute (raising `participant.mute_requested`); only they can switch their microphone. */
export async function askToMute(ctx: LiveContext<PlacePorts>, actor: Actor | null, meetingId: string, participantId: string): Promise<void> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  const target = await presentIn(ctx, meeting, participantId);
  await transact(ctx, async (tx) => {
    raise(tx, { type: 'participant.mute_requested', organizationId: meeting.organizationId, meetingId: meeting.id, participantId: target.id, ...byOf(actor), at: tx.now() });
  });
}

/**
 * Lowers a participant's raised hand (raising `participant.hand_lowered`,
 * not a webhook): a host's answer to "I have a question", or a hand
 * forgotten up. Their own page lowers it; anyone else can only lower their own.
 */
export async function lowerHand(ctx: LiveContext<PlacePorts>, actor: Actor | null, meetingId: string, participantId: string): Promise<void> {
  const meeting = await hostedMeeting(ctx, actor, meetingId);
  const target = await presentIn(ctx, meeting, participantId);
  await transact(ctx, async (tx) => {
    raise(tx, { type: 'participant.hand_lowered', organizationId: meeting.organizationId, meetingId: meeting.id, participantId: target.id, ...byOf(actor), at: tx.now() });
  });
}

/** Ends the meeting for everyone now, as a v3 DELETE ends it (`ended`, then its page answers 410); it stays readable through the API as closed. */
export async function endForEveryone(ctx: DomainContext<PlacePorts & MeetingPorts & WaitingListPorts>, actor: Actor | null, meetingId: string): Promise<void> {
  await hostedMeeting(ctx, actor, meetingId);
  // A waiting-list call ends as a hang-up: the client is served, the member free again.
  if (await hangUp(ctx, meetingId)) return;
  const ended = await endMeeting(ctx, meetingId, byOf(actor).byUserId, actor?.kind === 'api_key' ? actor.apiKeyId : undefined);
  if (!ended) throw new NotFoundError('meeting', 'This meeting has already ended.');
}

/**
 * The open meeting `meetingId`, if `actor` hosts it, or is an API key of
 * its organization (the organization's server acting as its host would:
 * `POST /v3/meeting/:id/end`, removing a participant); otherwise
 * ForbiddenError (NotFoundError when there is none open, or for another
 * organization's key).
 */
async function hostedMeeting(ctx: DomainContext<PlacePorts>, actor: Actor | null, meetingId: string): Promise<Meeting> {
  const meeting = await ctx.store.live.findMeetingRecord({ id: meetingId });
  if (!meeting || meetingState(meeting, ctx.now()) !== 'open') throw new NotFoundError('meeting');
  if (actor?.kind === 'api_key') {
    if (actor.organization.id !== meeting.organizationId) throw new NotFoundError('meeting');
    return meeting;
  }
  authorizeHost(actor, meeting);
  return meeting;
}

/** Who did it, as events name it: the host member (an API key's action names no member). */
function byOf(actor: Actor | null): { byUserId?: string } {
  return actor?.kind === 'member' ? { byUserId: actor.user.id } : {};
}

async function presentIn(ctx: LiveContext<PlacePorts>, meeting: Meeting, participantId: string): Promise<Participant> {
  const place: PlaceRef = { kind: 'meeting', id: meeting.id };
  const target = (await ctx.store.live.listPresent(place, liveClock(ctx).staleBefore)).find((p) => p.id === participantId);
  if (!target) throw new NotFoundError('participant', 'There is no such participant in this meeting.');
  return target;
}
