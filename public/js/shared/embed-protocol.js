// @module public/js/shared/embed-protocol — the messages between an
// embedded Foyer page and the page that embeds it (docs/embedding.md):
// the events the page posts to its parent and the commands it takes.
// Shared by the page's bridge (public/js/lib/embed-bridge.js) and, as a
// copy checked to be equal by test/web/embed-protocol.test.ts, the SDK
// (public/sdk/foyer.js), which must be one file with no imports.

/** `source` of every message Foyer's page posts. */
export const EVENT_SOURCE = 'foyer';
/** `source` of every command a parent posts to Foyer's page. */
export const COMMAND_SOURCE = 'foyer-parent';

export const EVENT_TYPES = [
  'ready',
  'joined',
  'left',
  'participant_joined',
  'participant_left',
  'knocking',
  'admitted',
  'waiting_changed',
  'media_changed',
  'chat_message',
  'locked',
  'unlocked',
  'ended',
  'error',
  'command_done',
];

/** Commands anyone in the call may send, and those only the meeting's host may. */
export const COMMANDS = ['hello', 'mute', 'unmute', 'start_camera', 'stop_camera', 'start_screen_share', 'stop_screen_share', 'leave'];
export const HOST_COMMANDS = ['lock', 'unlock', 'end'];
