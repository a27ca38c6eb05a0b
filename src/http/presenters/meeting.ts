/**
 * @module http/presenters/meeting
 * The meeting object of each version. Only the redirect URL's name and, in
 * v3, `isInfinite` differ; a v3 CONSULTATION has no `isInfinite` key at all.
 * v3 adds `title` when the meeting has one (v1 and v2 never show it).
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { meetingState } from '../../domain/lifecycle.ts';
import { meetingUrl } from '../../domain/links.ts';
import type { Meeting } from '../../domain/types.ts';
import { named } from '../openapi-document.ts';
import { responseId } from '../route-schemas.ts';

const id = responseId('UUID v4 of the meeting.');
const redirectUrl = Type.String({
  description: 'Where participants meet: {redirect_host}/meetings/<id>, or {redirect_host}/m/<code> when queryParameters were given.',
});

export const MeetingV1Schema = named('MeetingV1', Type.Object({ id, redirect_url: redirectUrl }));
export const MeetingV2Schema = named('MeetingV2', Type.Object({ id, redirectUrl }));
const meetingV3 = {
  id,
  redirectUrl,
  isInfinite: Type.Optional(Type.Boolean({ description: 'Present for type MEETING only: true when the meeting never closes.' })),
  title: Type.Optional(Type.String({ description: 'Foyer extension. The title the call page shows; absent when none was given.' })),
};
export const MeetingV3Schema = named('MeetingV3', Type.Object(meetingV3));

export function presentMeetingV1(publicUrl: string, meeting: Meeting): Static<typeof MeetingV1Schema> {
  return { id: meeting.id, redirect_url: meetingUrl(publicUrl, meeting) };
}

export function presentMeetingV2(publicUrl: string, meeting: Meeting): Static<typeof MeetingV2Schema> {
  return { id: meeting.id, redirectUrl: meetingUrl(publicUrl, meeting) };
}

export function presentMeetingV3(publicUrl: string, meeting: Meeting): Static<typeof MeetingV3Schema> {
  const title = meeting.title ? { title: meeting.title } : {};
  if (meeting.type === 'CONSULTATION') return { id: meeting.id, redirectUrl: meetingUrl(publicUrl, meeting), ...title };
  return { id: meeting.id, redirectUrl: meetingUrl(publicUrl, meeting), isInfinite: meeting.isInfinite, ...title };
}

/** `GET /v3/meeting/:id` (a Foyer extension of the spec's object): the v3 meeting with whether it is still open. */
export const MeetingV3ReadSchema = named('MeetingV3Read', Type.Object({
  ...meetingV3,
  state: Type.Union([Type.Literal('open'), Type.Literal('closed')], {
    description: 'Foyer extension. open: participants can join; closed: ended (idle for 15 minutes, or ended for everyone), its page answers 410.',
  }),
  closedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Foyer extension. When it closed (ISO 8601); null while open.' }),
}));

export function presentMeetingV3Read(publicUrl: string, meeting: Meeting, now: Date): Static<typeof MeetingV3ReadSchema> {
  const open = meetingState(meeting, now) === 'open';
  const closedAt = open ? null : (meeting.closedAt ?? meeting.deletedAt ?? meeting.closesAt);
  return { ...presentMeetingV3(publicUrl, meeting), state: open ? 'open' : 'closed', closedAt: closedAt?.toISOString() ?? null };
}
