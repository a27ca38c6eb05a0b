/**
 * @module realtime/handlers/relay
 * `offer`, `answer`, `ice`: passed to the named participant of the same
 * place, on whatever instance holds them, rebuilt from known fields; or,
 * addressed to the reserved peer `sfu`, to the participant's SFU link.
 */
import { SFU_PEER } from '../protocol.ts';
import type { MessageOf, ParticipantRole } from '../session.ts';

export function handleRelay(session: ParticipantRole, message: MessageOf<'offer' | 'answer' | 'ice'>): void {
  const { connection, place } = session;
  if (message.to === SFU_PEER) {
    // To the participant's SFU link.
    const link = session.sfuLink();
    if (message.type === 'offer') link?.offer(message.sdp, message.discarded);
    else if (message.type === 'answer') link?.answer(message.sdp, message.session);
    else link?.ice(message.candidate, message.session);
    return;
  }
  const relayed =
    message.type === 'ice'
      ? { type: 'ice' as const, from: session.id, candidate: message.candidate }
      : { type: message.type, from: session.id, sdp: message.sdp };
  connection.services.publish({ t: 'signal', place, to: message.to, message: relayed });
}

/** `sfu_want`: the layer (or none) of one participant's video this page receives through the SFU. */
export function handleSfuWant(session: ParticipantRole, message: MessageOf<'sfu_want'>): void {
  session.sfuLink()?.want(message.from, message.video);
}
