/**
 * @module realtime/handlers
 * The table of client messages and what handles each: a new message type
 * is one entry here, one handler module, and one parser in protocol.ts.
 * `when` lists the states of the connection in which the message is
 * accepted (see contracts.ts), or says `any`.
 */
import type { Handler } from '../contracts.ts';
import type { ClientMessage } from '../protocol.ts';
import { handleAdmit, handleAskMute, handleEnd, handleLock, handleRemove, handleTurnAway, handleUnlock } from './admin.ts';
import { handleAccept, handleConsole, handleDecline, handleStatus, handleTakeNext } from './console.ts';
import { handleLeave, handlePing } from './control.ts';
import { handleJoin } from './join.ts';
import { handleMedia } from './media.ts';
import { handleRelay } from './relay.ts';
import { handleWait } from './wait.ts';

export const HANDLERS: { [T in ClientMessage['type']]: Handler<T> } = {
  join: { when: ['new'], handle: handleJoin },
  offer: { when: ['joined'], handle: handleRelay },
  answer: { when: ['joined'], handle: handleRelay },
  ice: { when: ['joined'], handle: handleRelay },
  media: { when: ['joined'], handle: handleMedia },
  ping: { when: 'any', handle: handlePing },
  leave: { when: ['joined', 'knocking', 'waiting'], handle: handleLeave },
  wait: { when: ['new'], handle: handleWait },
  console: { when: ['new'], handle: handleConsole },
  accept: { when: ['console'], handle: handleAccept },
  decline: { when: ['console'], handle: handleDecline },
  take_next: { when: ['console'], handle: handleTakeNext },
  status: { when: ['console'], handle: handleStatus },
  end: { when: ['joined'], handle: handleEnd },
  remove: { when: ['joined'], handle: handleRemove },
  ask_mute: { when: ['joined'], handle: handleAskMute },
  lock: { when: ['joined'], handle: handleLock },
  unlock: { when: ['joined'], handle: handleUnlock },
  admit: { when: ['joined'], handle: handleAdmit },
  turn_away: { when: ['joined'], handle: handleTurnAway },
};
