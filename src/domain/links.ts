/**
 * @module domain/links
 * Where participants meet: the redirect URLs of the spec. One place builds
 * them so every API version and the front end agree.
 */
import type { Meeting, Room, Space } from './types.ts';

export function meetingUrl(publicUrl: string, meeting: Meeting): string {
  return meeting.shortCode
    ? `${publicUrl}/m/${meeting.shortCode}`
    : `${publicUrl}/meetings/${meeting.id}`;
}

export function slugUrl(publicUrl: string, place: Room | Space): string {
  return `${publicUrl}/${place.slug}`;
}
