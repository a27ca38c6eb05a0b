/**
 * @module realtime/sfu-link-role
 * A participant's link to the SFU as the rest of the real-time side knows
 * it (sessions/sfu-link.ts is the link itself), and the relay it speaks to
 * its participant through. The relay lets a link outlive the socket it
 * was made for: while no socket holds the participant (a dropped one, in
 * the resume grace), what the link says goes nowhere, and the relay
 * remembers whether anything but a talking event was lost (a subscription
 * offer, an answer): the resumed page is then asked to publish again
 * rather than trust connections that missed a renegotiation.
 */
import type { PlaceRef } from '../domain/presence.ts';
import type { IceCandidate, ServerMessage, VideoWant } from './protocol.ts';

/** A participant's link to the SFU, as the relay handler and the parking use it. */
export interface SfuLinkRole {
  /** The page is told to use the SFU: the link joins the room ahead of the page's first offer (`afresh`: the page starts over). */
  prepare(afresh?: boolean): void;
  /** The browser's offer of its sending connection (`discarded`: a subscription whose connection the page closed since). */
  offer(sdp: string, discarded?: string): void;
  /** The browser's answer to the subscription's offer (`subscription`: the one the offer named). */
  answer(sdp: string, subscription?: string): void;
  /** A candidate of the browser's publishing connection or subscription (`session` names which); null: no more. */
  ice(candidate: IceCandidate | null, session?: string): void;
  /** How much of a participant's video the browser wants. */
  want(from: string, video: VideoWant): void;
  /** The participant left: their feed and subscription end. */
  close(): Promise<void>;
}

/** What an SFU link says goes to whichever socket holds its participant now. */
export class LinkRelay {
  private target: ((message: ServerMessage) => void) | undefined;
  /** Something the page needed was said while no socket held the participant. */
  missed = false;

  constructor(
    readonly id: string,
    readonly place: PlaceRef,
    send: (message: ServerMessage) => void,
    readonly track: <T>(promise: Promise<T>) => Promise<T>,
  ) {
    this.target = send;
  }

  send(message: ServerMessage): void {
    if (this.target) this.target(message);
    else if (!(message.type === 'sfu' && message.event === 'talking')) this.missed = true;
  }

  /** The socket went: what the link says meanwhile is dropped (and noted). */
  park(): void {
    this.target = undefined;
    this.missed = false;
  }

  /** A resumed socket holds the participant now. */
  attach(send: (message: ServerMessage) => void): void {
    this.target = send;
  }
}

/** A link and the relay it speaks through: what goes from one socket of a participant to the next. */
export interface HeldLink {
  link: SfuLinkRole;
  relay: LinkRelay;
}

