/**
 * @module realtime/handlers/chat
 * `chat`: a message for everyone in the participant's place, on every
 * instance, with the sender's name and the time the server relayed it.
 * Relayed, never stored: no instance keeps it after sending it on, so a
 * page that joins later sees none of the earlier ones, and nothing is
 * left when the meeting ends. Length and rate are limited per participant
 * (public/js/shared/call-extras.js); a refused message goes back as an
 * `error` about the chat, and the socket stays; so is every message while
 * the meeting's host has turned the chat off (`chat_off`).
 */
import { MAX_CHAT_CHARS } from '../../../public/js/shared/call-extras.js';
import type { MessageOf, ParticipantRole } from '../session.ts';

// Control characters but tab and line breaks: nothing to show, and a way to garble someone's screen.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

export function handleChat(session: ParticipantRole, message: MessageOf<'chat'>): void {
  const { connection, place } = session;
  const text = message.text.replace(CONTROLS, '').replace(/\r\n?/g, '\n').trim();
  if (session.chatOff) {
    connection.send({ type: 'error', code: 'chat_off', message: 'The host has turned the chat off.', about: 'chat' });
    return;
  }
  if (text.length === 0 || text.length > MAX_CHAT_CHARS) {
    connection.send({ type: 'error', code: 'validation_failed', message: `A chat message is 1 to ${MAX_CHAT_CHARS} characters.`, about: 'chat' });
    return;
  }
  if (!session.allow('chat')) {
    connection.send({ type: 'error', code: 'slow_down', message: 'Too many chat messages at once: wait a moment, then send again.', about: 'chat' });
    return;
  }
  connection.services.publish({
    t: 'broadcast',
    place,
    message: { type: 'chat', from: session.id, name: session.name, text, at: new Date().toISOString() },
  });
}
