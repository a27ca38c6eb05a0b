/**
 * @module domain/joining
 * Joining a place, as one command: someone asks to join a meeting (by id)
 * or a room's or board's place (by slug), and gets back, from one unit of
 * work, one of three outcomes:
 * - `entered`: they are in, with everything their welcome needs (who is
 *   there, whether they host, whether the meeting is locked, who knocks);
 * - `knocking`: the meeting is locked (or they were removed from it), so
 *   they knock and wait for its host;
 * - `refused`: with a reason (no such place, ended, inactive, a waiting
 *   list to get in line with, a bad display name).
 *
 * The meeting row is read locked, so the admission decision (enter or
 * knock, see `admissionOf`) and the entry happen in the same transaction:
 * a lock set meanwhile waits for this join to commit, and a join never
 * slips in past a lock that committed first. A knocker who was let in
 * joins again with `admittedKnock`: their knock, decided `admitted`, is
 * their admission.
 */
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { DomainError } from './errors.ts';
import type { HostingPorts, Knock } from './hosting-ports.ts';
import { admissionOf, type Admission } from './hosting.ts';
import { isUuidV4 } from './ids.ts';
import { liveClock, meetingState, type LiveContext } from './lifecycle.ts';
import type { MeetingPorts } from './meeting-ports.ts';
import type { PlacePorts } from './place-ports.ts';
import { checkDisplayName, placeAtSlug, slugAdmission, type JoinRefusal, type JoinTarget } from './places.ts';
import type { Participant, PlaceRef } from './presence.ts';
import { issueResume } from './resume-tokens.ts';
import type { Meeting } from './types.ts';
import { memberJoinedCall } from './waiting/calls.ts';
import type { WaitingListPorts } from './waiting/ports.ts';

/** Someone asking to join, as their connection knows them. */
export interface Arrival {
  /** Their connection's id, unique across instances: their participant id once in. */
  connectionId: string;
  /** The signed-in member whose browser asks (their session), if any. */
  actor: Actor | null;
  /** Who they are across reconnects (member or browser), if known. */
  guestKey: string | null;
  target: JoinTarget;
  /** The display name as sent; checked here. */
  name: unknown;
  audio: boolean;
  video: boolean;
}

/** What a participant who entered a place is told: the welcome's content (a join's or a resume's). */
export interface Entered {
  you: Participant;
  place: PlaceRef;
  /** A room's title, a board's name; null for a meeting. */
  title: string | null;
  /** They are the meeting's host. */
  host: boolean;
  /** Arrivals knock (always false in a room's place). */
  locked: boolean;
  /** The host turned the chat off (always false in a room's place). */
  chatOff: boolean;
  /** Everyone present, them included, oldest first. */
  participants: Participant[];
  /** Those knocking, oldest first: only for the host, empty otherwise. */
  knocks: Knock[];
}

export type JoinOutcome =
  /** `token`: the resume token, issued in the same unit of work (only its hash is stored). */
  | ({ kind: 'entered'; token: string } & Entered)
  | { kind: 'knocking'; place: PlaceRef; knock: Knock }
  | { kind: 'refused'; reason: JoinRefusal | 'bad_name'; message?: string };

/** What a join touches: presence, the meeting's lock and knocks, its start, and a waiting-list call. */
type JoinPorts = PlacePorts & HostingPorts & MeetingPorts & WaitingListPorts;

/**
 * Joins `arrival` to its target. Raises `participant.joined` (after
 * `meeting.started` for a meeting's first participant ever, or
 * `room.session.started` for a new session), `meeting.knocked` for a
 * knock, `meeting.unlocked` when the owner's arrival opens a consultation,
 * and `waiting.changed` when the member who took a waiting client joins
 * their call.
 */
export async function joinPlace(ctx: LiveContext<JoinPorts>, arrival: Arrival, options: { admittedKnock?: string } = {}): Promise<JoinOutcome> {
  let displayName: string;
  try {
    displayName = checkDisplayName(arrival.name);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { kind: 'refused', reason: 'bad_name', message: error.message };
  }
  const asked = { ...arrival, displayName };
  if ('slug' in arrival.target) return enterSlugPlace(ctx, asked, arrival.target.slug);
  const meetingId = arrival.target.meetingId;
  if (!isUuidV4(meetingId)) return { kind: 'refused', reason: 'not_found' };
  return transact(ctx, async (tx) => {
    const meeting = await tx.store.live.findMeetingRecord({ id: meetingId.toLowerCase() }, { lock: true });
    if (!meeting) return { kind: 'refused', reason: 'not_found' };
    const state = meetingState(meeting, tx.now());
    if (state !== 'open') return { kind: 'refused', reason: state };
    const admission = options.admittedKnock ? await admittedBy(tx, options.admittedKnock) : await admissionOf(tx, meeting, arrival);
    if (admission.kind === 'knock') return knockAt(tx, ctx.instanceId, meeting, asked, admission.wasRemoved);
    return enterMeeting(tx, ctx, meeting, asked, admission.host);
  });
}

type Asked = Arrival & { displayName: string };

/** A let-in knocker's admission: their knock, decided, is taken off the list. */
async function admittedBy(tx: DomainContext<HostingPorts>, knockId: string): Promise<Admission> {
  const knock = await tx.store.deleteKnock(knockId);
  if (knock?.state !== 'admitted') throw new DomainError('conflict', 'This knock was not let in.');
  return { kind: 'enter', host: false };
}

async function knockAt(tx: DomainContext<HostingPorts>, instanceId: string, meeting: Meeting, asked: Asked, wasRemoved: boolean): Promise<JoinOutcome> {
  const at = tx.now();
  const knock: Knock = {
    id: asked.connectionId,
    meetingId: meeting.id,
    instanceId,
    displayName: asked.displayName,
    guestKey: asked.guestKey,
    wasRemoved,
    state: 'knocking',
    arrivedAt: at,
  };
  await tx.store.insertKnock(knock);
  raise(tx, { type: 'meeting.knocked', organizationId: meeting.organizationId, meetingId: meeting.id, knockId: knock.id, displayName: knock.displayName, at });
  return { kind: 'knocking', place: { kind: 'meeting', id: meeting.id }, knock };
}

async function enterMeeting(tx: DomainContext<JoinPorts>, live: LiveContext<JoinPorts>, meeting: Meeting, asked: Asked, host: boolean): Promise<JoinOutcome> {
  const at = tx.now();
  const place: PlaceRef = { kind: 'meeting', id: meeting.id };
  const you: Participant = { ...participantOf(asked, live.instanceId, at, host), place };
  if (!(await tx.store.live.enterMeeting(meeting.id, you, at))) return { kind: 'refused', reason: 'closed' };
  let locked = meeting.lock !== 'open';
  // The owner is in: a consultation waiting for them opens.
  const owner = asked.actor?.kind === 'member' && asked.actor.user.id === meeting.ownerUserId ? asked.actor : undefined;
  if (host && owner && meeting.lock === 'until_owner' && (await tx.store.setMeetingLock(meeting.id, 'open', ['until_owner']))) {
    raise(tx, { type: 'meeting.unlocked', organizationId: meeting.organizationId, meetingId: meeting.id, byUserId: owner.user.id, at });
    locked = false;
  }
  if (await tx.store.markMeetingStarted(meeting.id, at)) raise(tx, { type: 'meeting.started', organizationId: meeting.organizationId, meetingId: meeting.id, at });
  raise(tx, joinedEvent(meeting.organizationId, you));
  // The member who took a waiting client joining their call starts it.
  if (asked.actor) await memberJoinedCall(tx, asked.actor, meeting.id);
  const staleBefore = liveClock(live).staleBefore;
  const participants = await tx.store.live.listPresent(place, staleBefore);
  const knocks = host ? await tx.store.listKnocks(meeting.id, staleBefore) : [];
  const token = await issueResume(tx, you.id);
  return { kind: 'entered', you, place, title: null, host, locked, chatOff: meeting.chatOff, participants, knocks, token };
}

async function enterSlugPlace(ctx: LiveContext<PlacePorts>, asked: Asked, slug: string): Promise<JoinOutcome> {
  // The place is read, admitted and entered in one unit of work (the room or board row is not locked: a
  // board turned inactive by a transaction that commits meanwhile is seen by its next join).
  return transact(ctx, async (tx): Promise<JoinOutcome> => {
    const found = await placeAtSlug(tx, slug);
    if (!found) return { kind: 'refused', reason: 'not_found' };
    const admission = slugAdmission(found);
    if (admission !== 'enter') return { kind: 'refused', reason: admission };
    const ownerKind = found.kind === 'room' ? 'room' : 'board';
    const title = found.kind === 'room' ? found.title : found.name;
    const at = tx.now();
    const joining = participantOf(asked, ctx.instanceId, at, false);
    const session = await tx.store.live.enterSession(ownerKind, found.id, joining, at);
    const place: PlaceRef = { kind: 'session', id: session.id };
    // A session started by this participant carries their arrival time.
    if (session.startedAt.getTime() === at.getTime()) {
      raise(tx, { type: 'room.session.started', organizationId: found.organizationId, sessionId: session.id, ownerKind, ownerId: found.id, at });
    }
    const you: Participant = { ...joining, place };
    raise(tx, joinedEvent(found.organizationId, you));
    const participants = await tx.store.live.listPresent(place, liveClock(ctx).staleBefore);
    const token = await issueResume(tx, you.id);
    return { kind: 'entered', you, place, title, host: false, locked: false, chatOff: false, participants, knocks: [], token };
  });
}

function participantOf(asked: Asked, instanceId: string, at: Date, host: boolean): Omit<Participant, 'place'> {
  return {
    id: asked.connectionId,
    displayName: asked.displayName,
    audio: asked.audio,
    video: asked.video,
    screen: false,
    host,
    guestKey: asked.guestKey,
    instanceId,
    joinedAt: at,
    reconnecting: false,
  };
}

function joinedEvent(organizationId: string, you: Participant) {
  return {
    type: 'participant.joined' as const,
    organizationId,
    place: you.place,
    participantId: you.id,
    displayName: you.displayName,
    media: { audio: you.audio, video: you.video, screen: you.screen },
    host: you.host,
    at: you.joinedAt,
  };
}
