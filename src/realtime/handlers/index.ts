/**
 * @module realtime/handlers
 * The table of client messages and what handles each: a new message type
 * is one entry here, one handler module, and one parser in protocol.ts.
 * `when` says in which state of the connection the message is accepted:
 * before joining (`new`), after (`joined`), or at any time.
 */
import type { Handler } from '../contracts.ts';
import type { ClientMessage } from '../protocol.ts';
import { handleLeave, handlePing } from './control.ts';
import { handleJoin } from './join.ts';
import { handleMedia } from './media.ts';
import { handleRelay } from './relay.ts';

export const HANDLERS: { [T in ClientMessage['type']]: Handler<T> } = {
  join: { when: 'new', handle: handleJoin },
  offer: { when: 'joined', handle: handleRelay },
  answer: { when: 'joined', handle: handleRelay },
  ice: { when: 'joined', handle: handleRelay },
  media: { when: 'joined', handle: handleMedia },
  ping: { when: 'any', handle: handlePing },
  leave: { when: 'joined', handle: handleLeave },
};
