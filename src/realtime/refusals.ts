/**
 * @module realtime/refusals
 * How a refused join or wait is told to the client: the close code the
 * page acts on, and the words of the `error` before it.
 */
import type { JoinRefusal } from '../domain/places.ts';
import { CloseCode } from './protocol.ts';

export interface Refusal {
  code: number;
  message: string;
}

export const JOIN_REFUSALS: Record<JoinRefusal, Refusal> = {
  not_found: { code: CloseCode.notFound, message: 'There is no such meeting or room.' },
  closed: { code: CloseCode.gone, message: 'This meeting has ended.' },
  deleted: { code: CloseCode.gone, message: 'This meeting has ended.' },
  inactive: { code: CloseCode.notJoinable, message: 'This place is not active.' },
  waiting_list: { code: CloseCode.notJoinable, message: 'This place has a waiting list: get in its line with `wait`.' },
};

export const WAIT_REFUSALS = {
  not_found: { code: CloseCode.notFound, message: 'There is no such board or queue.' },
  inactive: { code: CloseCode.notJoinable, message: 'This place is not active.' },
  no_waiting_list: { code: CloseCode.notJoinable, message: 'This board has no waiting list: join it directly.' },
  too_many_waiting: { code: CloseCode.notJoinable, message: 'Too many people are waiting in this line from your network. Please try again later.' },
  line_full: { code: CloseCode.notJoinable, message: 'This line is full. Please try again later.' },
} as const satisfies Record<string, Refusal>;
