/**
 * @module domain/meeting-control
 * A meeting run from the organization's own server (the API), as its host
 * runs it in the call: who is in it now (across every instance: presence
 * is in the database), ending it for everyone, removing a participant.
 * The host's own commands (hosting.ts) carry them out, with the API key as
 * the actor, so the people in the call and the webhooks see exactly what
 * they see when the host clicks. Another organization's meeting does not
 * exist here.
 */
import type { Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { ConflictError, NotFoundError } from './errors.ts';
import type { HostingPorts } from './hosting-ports.ts';
import { endForEveryone, removeParticipant } from './hosting.ts';
import { meetingState, type LiveContext } from './lifecycle.ts';
import type { MeetingPorts } from './meeting-ports.ts';
import { getMeeting } from './meetings.ts';
import type { PlacePorts } from './place-ports.ts';
import { participantsOf } from './places.ts';
import type { Participant } from './presence.ts';
import type { Meeting } from './types.ts';
import type { WaitingListPorts } from './waiting/ports.ts';

/** Who is in the meeting now, oldest first; nobody once it has ended. */
export async function meetingParticipants(ctx: LiveContext<MeetingPorts & PlacePorts>, actor: Actor, meetingId: string): Promise<Participant[]> {
  const meeting = await getMeeting(ctx, actor, meetingId);
  if (meetingState(meeting, ctx.now()) !== 'open') return [];
  return participantsOf(ctx, { kind: 'meeting', id: meeting.id });
}

/** Ends the meeting for everyone now; answers it closed. Ending an ended meeting is a conflict. */
export async function endMeetingNow(ctx: DomainContext<MeetingPorts & PlacePorts & WaitingListPorts>, actor: Actor, meetingId: string): Promise<Meeting> {
  const meeting = await getMeeting(ctx, actor, meetingId);
  if (meetingState(meeting, ctx.now()) !== 'open') throw new ConflictError('meeting', 'This meeting has already ended.');
  await endForEveryone(ctx, actor, meeting.id);
  return getMeeting(ctx, actor, meeting.id);
}

/** Removes a participant as the host would: they leave at once, and knock if they come back during this meeting. */
export async function removeMeetingParticipant(ctx: LiveContext<MeetingPorts & HostingPorts & PlacePorts>, actor: Actor, meetingId: string, participantId: string): Promise<Participant> {
  const meeting = await getMeeting(ctx, actor, meetingId);
  if (meetingState(meeting, ctx.now()) !== 'open') throw new NotFoundError('participant', 'This meeting has ended: nobody is in it.');
  return removeParticipant(ctx, actor, meeting.id, participantId);
}
