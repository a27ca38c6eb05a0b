/**
 * @module realtime/sfu-parking
 * SFU links whose participant's socket dropped, kept through the resume
 * grace. Janus goes on forwarding that participant's media both ways while
 * their page finds its way back (the others still see and hear them; the
 * page keeps its two connections), and a resume on this instance takes the
 * link over without a renegotiation. A resume on another instance (that
 * one's link publishes anew), the end of the grace, or this instance
 * stopping closes the link, which takes the feed out of the SFU room.
 *
 * A link speaks to its participant through a `LinkRelay`: while parked,
 * what it says goes nowhere, and the relay remembers whether anything but
 * a talking event was lost (a subscription offer, an answer): then the
 * resumed page is asked to publish again rather than trust connections
 * that missed a renegotiation.
 */
import type { PlaceRef } from '../domain/presence.ts';
import type { ServerMessage } from './protocol.ts';
import type { SfuLink, SfuLinkOwner } from './sessions/sfu-link.ts';

/** What an SFU link says goes to whichever socket holds its participant now. */
export class LinkRelay implements SfuLinkOwner {
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

export interface HeldLink {
  link: SfuLink;
  relay: LinkRelay;
}

export class SfuParking {
  private readonly parked = new Map<string, HeldLink & { timer: NodeJS.Timeout }>();

  constructor(private readonly track: <T>(promise: Promise<T>) => Promise<T>) {}

  /** Keeps `held` for `graceMs`, the time its participant has to resume. */
  park(participantId: string, held: HeldLink, graceMs: number): void {
    this.discard(participantId);
    held.relay.park();
    const timer = setTimeout(() => this.discard(participantId), graceMs);
    timer.unref();
    this.parked.set(participantId, { ...held, timer });
  }

  /** The participant resumed here: their link, if it is parked here. */
  take(participantId: string): HeldLink | undefined {
    const held = this.parked.get(participantId);
    if (!held) return undefined;
    clearTimeout(held.timer);
    this.parked.delete(participantId);
    return { link: held.link, relay: held.relay };
  }

  /** The participant resumed elsewhere, left, or ran out of grace: their parked link closes. */
  discard(participantId: string): void {
    const held = this.take(participantId);
    if (held) void this.track(held.link.close());
  }

  /** The instance stops: every parked link closes. */
  stop(): void {
    for (const id of [...this.parked.keys()]) this.discard(id);
  }
}
