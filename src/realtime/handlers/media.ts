/**
 * @module realtime/handlers/media
 * `media`: the participant's microphone, camera and screen as they
 * announce them; written and sent to every instance as a delta at a
 * bounded rate (see `MEDIA_UPDATE_INTERVAL_MS` in sessions/announcements.ts).
 */
import type { MessageOf, ParticipantRole } from '../session.ts';

export function handleMedia(session: ParticipantRole, message: MessageOf<'media'>): void {
  session.announceMedia({ audio: message.audio, video: message.video, screen: message.screen });
}
