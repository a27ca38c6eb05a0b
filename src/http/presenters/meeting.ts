/**
 * @module http/presenters/meeting
 * The meeting object of each version. Only the redirect URL's name and, in
 * v3, `isInfinite` differ; a v3 CONSULTATION has no `isInfinite` key at all.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { meetingUrl } from '../../domain/links.ts';
import type { Meeting } from '../../domain/types.ts';

const id = Type.String({ description: 'UUID v4 of the meeting.' });
const redirectUrl = Type.String({
  description: 'Where participants meet: {redirect_host}/meetings/<id>, or {redirect_host}/m/<code> when queryParameters were given.',
});

export const MeetingV1Schema = Type.Object({ id, redirect_url: redirectUrl });
export const MeetingV2Schema = Type.Object({ id, redirectUrl });
export const MeetingV3Schema = Type.Object({
  id,
  redirectUrl,
  isInfinite: Type.Optional(Type.Boolean({ description: 'Present for type MEETING only: true when the meeting never closes.' })),
});

export function presentMeetingV1(publicUrl: string, meeting: Meeting): Static<typeof MeetingV1Schema> {
  return { id: meeting.id, redirect_url: meetingUrl(publicUrl, meeting) };
}

export function presentMeetingV2(publicUrl: string, meeting: Meeting): Static<typeof MeetingV2Schema> {
  return { id: meeting.id, redirectUrl: meetingUrl(publicUrl, meeting) };
}

export function presentMeetingV3(publicUrl: string, meeting: Meeting): Static<typeof MeetingV3Schema> {
  if (meeting.type === 'CONSULTATION') return { id: meeting.id, redirectUrl: meetingUrl(publicUrl, meeting) };
  return { id: meeting.id, redirectUrl: meetingUrl(publicUrl, meeting), isInfinite: meeting.isInfinite };
}
