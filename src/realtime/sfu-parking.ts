/**
 * @module realtime/sfu-parking
 * SFU links whose participant's socket dropped, kept through the resume
 * grace. Janus goes on forwarding that participant's media both ways while
 * their page finds its way back (the others still see and hear them; the
 * page keeps its two connections), and a resume on this instance takes the
 * link over without a renegotiation. A resume on another instance (that
 * one's link publishes anew), the end of the grace, or this instance
 * stopping closes the link, which takes the feed out of the SFU room.
 */
import type { HeldLink } from './sfu-link-role.ts';

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
