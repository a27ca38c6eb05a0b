/**
 * @module realtime/handlers/media
 * `media`: the participant's microphone, camera and screen as they
 * announce them; written and fanned out at a bounded rate (see
 * `MEDIA_UPDATE_INTERVAL_MS`).
 */
import type { ClientConnection } from '../contracts.ts';
import type { ClientMessage } from '../protocol.ts';

export function handleMedia(connection: ClientConnection, message: Extract<ClientMessage, { type: 'media' }>): void {
  connection.announceMedia({ audio: message.audio, video: message.video, screen: message.screen });
}
