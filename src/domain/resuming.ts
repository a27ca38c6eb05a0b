/**
 * @module domain/resuming
 * Coming back after a dropped socket without leaving: a participant whose
 * socket closed without `leave` is kept, away, for a grace period; their
 * page joins again with the resume token it was given and is the same
 * participant again (same id, place, host status, media), with no
 * `participant.left` or `participant.joined` raised. A token is random
 * (256 bits), stored only as its SHA-256, bound to its participant and
 * place, and good for one resume: each resume hands out the next one.
 * After the grace the participant leaves as any other (the sweep, see
 * lifecycle.ts).
 */
import type { Actor } from './actors.ts';
import { transact } from './context.ts';
import { isUuidV4 } from './ids.ts';
import { liveClock, meetingState, type LiveContext } from './lifecycle.ts';
import { placeAtSlug, slugAdmission, type JoinTarget } from './places.ts';
import { isHost } from './policies.ts';
import type { HostingPorts } from './hosting-ports.ts';
import type { Entered } from './joining.ts';
import type { PlacePorts } from './place-ports.ts';
import type { PlaceRef } from './presence.ts';
import { hashOf, newResumeToken, RESUME_TOKEN_MAX } from './resume-tokens.ts';

/**
 * The participant's socket `socketId` dropped: they stay for `graceMs`,
 * away. Returns their place, or undefined when that socket no longer holds
 * them (they left, or already came back on another socket).
 */
export async function detachParticipant(ctx: LiveContext<PlacePorts>, participantId: string, socketId: string, graceMs: number): Promise<PlaceRef | undefined> {
  return ctx.store.live.detach(participantId, socketId, new Date(ctx.now().getTime() + graceMs));
}

/** Someone asking to take their place back. */
export interface ResumeRequest {
  token: string;
  target: JoinTarget;
  /** The new socket's id: it holds the participant from now on. */
  socketId: string;
  actor: Actor | null;
}

export type ResumeOutcome =
  /** `host`: still the host only if they were and the new socket is still that member's. `token`: the next one (the one sent is spent). */
  | ({ kind: 'resumed'; token: string } & Entered)
  | { kind: 'refused' };

/**
 * Takes the place of the token's participant back for `request.socketId`,
 * if the token is theirs, for this place, and their grace has not ended
 * (and the place is still open). Anything else is refused, alike: the
 * caller joins them as a new participant instead.
 */
export async function resumePlace(ctx: LiveContext<PlacePorts & HostingPorts>, request: ResumeRequest): Promise<ResumeOutcome> {
  const refused = { kind: 'refused' } as const;
  if (request.token.length === 0 || request.token.length > RESUME_TOKEN_MAX) return refused;
  const hash = hashOf(request.token);
  const next = newResumeToken();
  const at = ctx.now();
  const resume = (place: PlaceRef) =>
    ctx.store.live.resume({ hash, nextHash: next.hash, place, socketId: request.socketId, instanceId: ctx.instanceId, at });

  if ('meetingId' in request.target) {
    const meetingId = request.target.meetingId.toLowerCase();
    if (!isUuidV4(meetingId)) return refused;
    return transact(ctx, async (tx) => {
      const meeting = await tx.store.live.findMeetingRecord({ id: meetingId }, { lock: true });
      if (!meeting || meetingState(meeting, at) !== 'open') return refused;
      const place: PlaceRef = { kind: 'meeting', id: meeting.id };
      const you = await tx.store.live.resume({ hash, nextHash: next.hash, place, socketId: request.socketId, instanceId: ctx.instanceId, at });
      if (!you) return refused;
      // Host powers come back only with the member who held them (a sign-out meanwhile ends them).
      const host = you.host && isHost(request.actor, meeting);
      if (you.host && !host) await tx.store.live.dropHost(you.id);
      const staleBefore = liveClock(ctx).staleBefore;
      const participants = await tx.store.live.listPresent(place, staleBefore);
      const knocks = host ? await tx.store.listKnocks(meeting.id, staleBefore) : [];
      return { kind: 'resumed', you: { ...you, host }, place, title: null, host, locked: meeting.lock !== 'open', chatOff: meeting.chatOff, participants, knocks, token: next.token };
    });
  }
  const found = await placeAtSlug(ctx, request.target.slug);
  if (!found || slugAdmission(found) !== 'enter') return refused;
  // The token's place must be the open session of this room or board.
  const held = await ctx.store.live.findResumable(hash);
  if (held?.kind !== 'session') return refused;
  const session = await ctx.store.live.findSession(held.id);
  if (!session || session.ownerId !== found.id || session.closedAt) return refused;
  const you = await resume(held);
  if (!you) return refused;
  const participants = await ctx.store.live.listPresent(held, liveClock(ctx).staleBefore);
  const title = found.kind === 'room' ? found.title : found.name;
  return { kind: 'resumed', you, place: held, title, host: false, locked: false, chatOff: false, participants, knocks: [], token: next.token };
}
