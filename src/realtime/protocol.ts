/**
 * @module realtime/protocol
 * The signalling protocol's messages (docs/signalling.md is the prose
 * version): what clients send (parsed in client-messages.ts) and what the
 * server sends, and how participants and knocks are shown in them.
 */

import type { Readiness } from '../domain/waiting/types.ts';
import type { IceServer } from './ice.ts';
import type { ClientView, ConsoleView } from '../domain/waiting/views.ts';

/**
 * Largest WebSocket message accepted; `ws` closes the socket with 1009 beyond it. Room for an answer to the SFU's
 * subscription, whose m-lines grow with the meeting (two per other person: a browser's answer in a meeting of 50
 * comes near 60 000 characters, a Node WebRTC library's passes it).
 */
export const MAX_MESSAGE_BYTES = 512 * 1024;
/** Between two browsers: one microphone, one camera. */
export const MAX_SDP_CHARS = 60_000;
/** To the SFU (the subscription's answer): a meeting of a few hundred; with JSON's escapes, within one frame. */
export const MAX_SFU_SDP_CHARS = 400_000;
/** A socket that has not joined sends nothing longer than this (a join, a wait, a console). */
export const MAX_UNJOINED_CHARS = 64 * 1024;
export const MAX_CANDIDATE_CHARS = 2_048;
export const MAX_ID_CHARS = 64;

/** Close codes of the signalling socket, shared with the browser pages (which act on them). */
export { CloseCode } from '../../public/js/shared/close-codes.js';

export interface IceCandidate {
  candidate: string;
  sdpMid: string | null;
  sdpMLineIndex: number | null;
  usernameFragment: string | null;
}

export type ClientMessage =
  | { type: 'join'; target: { meetingId: string } | { slug: string }; name: string; audio: boolean; video: boolean; pass: string | null; resume: string | null }
  | { type: 'offer'; to: string; sdp: string; discarded?: string }
  /** To `sfu`, an answer names the subscription (the `session` of the offer it answers): one to a subscription replaced since is dropped. */
  | { type: 'answer'; to: string; sdp: string; session?: string }
  /**
   * To `sfu`, a candidate names the connection it belongs to (`session`): the publishing connection's offer's
   * o= session, or the subscription's name.
   */
  | { type: 'ice'; to: string; candidate: IceCandidate | null; session?: string }
  | { type: 'media'; audio: boolean; video: boolean; screen: boolean }
  | { type: 'ping' }
  | { type: 'leave' }
  | { type: 'wait'; slug: string; name: string; token: string | null; readiness: Readiness | null }
  | { type: 'readiness'; readiness: Readiness }
  | { type: 'here' }
  | { type: 'console'; kind: 'board' | 'queue'; spaceId: string }
  | { type: 'accept'; entryId: string }
  | { type: 'decline'; entryId: string; message: string | null }
  | { type: 'take_next' }
  | { type: 'remove_client'; entryId: string }
  | { type: 'status'; isActive: boolean | undefined; isAutoAccepting: boolean | undefined }
  | { type: 'end' }
  | { type: 'remove'; participantId: string }
  | { type: 'ask_mute'; participantId: string }
  | { type: 'lower_hand'; participantId: string }
  | { type: 'set_chat'; off: boolean }
  | { type: 'lock' }
  | { type: 'unlock' }
  | { type: 'admit'; knockId: string }
  | { type: 'turn_away'; knockId: string }
  | { type: 'chat'; text: string }
  | { type: 'hand'; raised: boolean }
  | { type: 'reaction'; emoji: string }
  /** Through the SFU: how much of `from`'s video this page wants (its tile's size, or none beyond the video slots). */
  | { type: 'sfu_want'; from: string; video: VideoWant };

export type VideoWant = 'high' | 'low' | 'off';

export interface ParticipantView {
  id: string;
  name: string;
  audio: boolean;
  video: boolean;
  screen: boolean;
  /** The meeting's host: everyone sees them as the host. */
  host: boolean;
  /** Their hand is raised (kept by the instances, never stored). */
  hand: boolean;
  /** `reconnecting`: their socket dropped and they may come back (the grace period); their media may still flow. */
  state: 'connected' | 'reconnecting';
}

/** A chat message as everyone in the place receives it (the sender too). */
export interface ChatMessage {
  type: 'chat';
  /** The sender's participant id. */
  from: string;
  /** The sender's display name when they sent it. */
  name: string;
  text: string;
  /** When the server relayed it (ISO 8601). */
  at: string;
}

/** A reaction as everyone in the place receives it (the sender too). */
export interface ReactionMessage {
  type: 'reaction';
  from: string;
  emoji: string;
}

/** Someone knocking, as their meeting's host sees them. */
export interface KnockView {
  id: string;
  name: string;
  arrivedAt: string;
  /** They had been removed from this meeting earlier. */
  wasRemoved: boolean;
}

export type ServerMessage =
  | {
      type: 'welcome';
      you: ParticipantView;
      place: { kind: 'meeting' | 'room'; title: string | null };
      participants: ParticipantView[];
      /** You are the meeting's host. */
      host: boolean;
      /** Arrivals knock (always false in a room). */
      locked: boolean;
      /** The host turned the chat off: chat messages are refused (always false in a room). */
      chatOff: boolean;
      /** Where to find a path for media: STUN and TURN servers, with TURN credentials of this participant's own. */
      iceServers: IceServer[];
      /** `relay`: use the TURN relay only (the operator's ICE_TRANSPORT_POLICY). */
      iceTransportPolicy: 'all' | 'relay';
      /** What this server relays besides media and presence: `chat`, `hand`, `reaction`. */
      features: string[];
      /** Send it with the next `join` after a dropped socket to come back as this same participant (good once). */
      resume: string;
      /** This join took a dropped participant's place back (same id). */
      resumed: boolean;
      /** With an SFU: at most this many videos the page shows at once (SFU_VIDEO_SLOTS); the SFU sends no more. */
      videoSlots?: number;
      /** The place is on the SFU already: media goes through it from the start (`sfu` `use` follows). */
      sfu?: true;
    }
  | { type: 'participants'; participants: ParticipantView[] }
  /**
   * From `sfu`: an answer names the session (o= line) of the offer it
   * answers, so an answer to a replaced offer is recognised; an offer names
   * its subscription (Janus gives each of its offers a new o= session, so
   * that cannot tell a renegotiation from a new subscription).
   */
  | { type: 'offer' | 'answer'; from: string; sdp: string; session?: string }
  | { type: 'ice'; from: string; candidate: IceCandidate | null }
  | { type: 'ended'; reason: 'closed' | 'deleted'; by?: 'host' }
  | { type: 'knocking'; wasRemoved: boolean }
  | { type: 'knocks'; knocks: KnockView[] }
  | { type: 'lock'; locked: boolean }
  /** Your member rights ended (signed out, removed): you stay, no longer the host. */
  | { type: 'host'; host: false }
  | { type: 'mute_requested' }
  /** The host lowered your raised hand. */
  | { type: 'hand_lowered'; by: 'host' }
  /** The host turned the chat off or on again. */
  | { type: 'chat_state'; off: boolean }
  | ChatMessage
  | ReactionMessage
  | { type: 'error'; code: string; message: string; about?: 'chat' | 'reaction' }
  | { type: 'pong' }
  | { type: 'waiting'; token: string | undefined; view: ClientView }
  | { type: 'console'; view: ConsoleView }
  | SfuMessage;

/** The peer id that `offer`/`answer`/`ice` address to reach the SFU instead of a participant. */
export const SFU_PEER = 'sfu';

/** What the SFU link tells its browser besides offers and answers (docs/signalling.md, "The sfu peer"). */
export type SfuMessage =
  /** The place's media goes through the SFU from now on: publish to `sfu` (again, with `restart`: the SFU changed). */
  | { type: 'sfu'; event: 'use'; restart: boolean }
  /**
   * Which participant each receiving m-line (by mid) carries, for the subscription offer that follows;
   * a video's `source` says whether it is their camera or a screen they share.
   */
  | { type: 'sfu'; event: 'streams'; streams: Array<{ mid: string; kind: 'audio' | 'video'; from: string; source?: 'camera' | 'screen' }> }
  /** Who is speaking, from the SFU's audio levels. */
  | { type: 'sfu'; event: 'talking'; from: string; talking: boolean };

/** How a participant is shown to the others. */
export function participantView(p: { id: string; displayName: string; audio: boolean; video: boolean; screen: boolean; host: boolean; hand?: boolean; reconnecting?: boolean }): ParticipantView {
  return { id: p.id, name: p.displayName, audio: p.audio, video: p.video, screen: p.screen, host: p.host, hand: p.hand === true, state: p.reconnecting ? 'reconnecting' : 'connected' };
}

export function knockView(k: { id: string; displayName: string; arrivedAt: Date; wasRemoved: boolean }): KnockView {
  return { id: k.id, name: k.displayName, arrivedAt: k.arrivedAt.toISOString(), wasRemoved: k.wasRemoved };
}
