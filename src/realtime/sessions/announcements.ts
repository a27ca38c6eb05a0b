/**
 * @module realtime/sessions/announcements
 * What a participant announces to everyone in the place at a bounded rate:
 * their media state (a database write and a delta to every instance) and
 * their raised hand (a delta only: hands are never stored). A client
 * toggling as fast as it may send costs at most one of each per interval;
 * the latest state always lands, at most one interval later.
 */
import { updateMedia } from '../../domain/places.ts';
import type { MediaState, PlaceRef } from '../../domain/presence.ts';
import type { SessionHost } from '../session.ts';

/** At most one media-state write (and delta to every instance), and one hand delta, per participant per this interval. */
export const MEDIA_UPDATE_INTERVAL_MS = 250;

export class Announcements {
  /** The newest media state not yet written, and the timer that will write it. */
  private pendingMedia: MediaState | null = null;
  private mediaTimer: NodeJS.Timeout | undefined;
  private lastMediaAt = 0;
  /** The hand as the participant last set it, and as it was last announced. */
  private raised = false;
  private announcedHand = false;
  private handTimer: NodeJS.Timeout | undefined;
  private lastHandAt = 0;
  private stopped = false;

  constructor(
    private readonly connection: SessionHost,
    private readonly participantId: string,
    private readonly place: PlaceRef,
  ) {}

  get hand(): boolean {
    return this.raised;
  }

  media(media: MediaState): void {
    this.pendingMedia = media;
    this.scheduleMedia();
  }

  raiseHand(raised: boolean): void {
    this.raised = raised;
    if (this.handTimer || this.stopped) return;
    const wait = Math.max(0, this.lastHandAt + MEDIA_UPDATE_INTERVAL_MS - Date.now());
    if (wait === 0) return this.publishHand();
    this.handTimer = setTimeout(() => {
      this.handTimer = undefined;
      this.publishHand();
    }, wait);
  }

  /** Says the hand again, raised or not: for lists held from deltas that do not know it yet. */
  reannounceHand(): void {
    if (!this.stopped) this.publishHand(true);
  }

  /** The participant left: nothing more goes out. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.mediaTimer);
    clearTimeout(this.handTimer);
  }

  private scheduleMedia(): void {
    if (this.mediaTimer || !this.pendingMedia || this.stopped) return;
    const wait = Math.max(0, this.lastMediaAt + MEDIA_UPDATE_INTERVAL_MS - Date.now());
    this.mediaTimer = setTimeout(() => {
      this.mediaTimer = undefined;
      this.connection.enqueue(() => this.writeMedia());
    }, wait);
  }

  private async writeMedia(): Promise<void> {
    const media = this.pendingMedia;
    if (!media || this.stopped) return;
    this.pendingMedia = null;
    this.lastMediaAt = Date.now();
    const { services } = this.connection;
    await updateMedia(services.ctx, this.participantId, media);
    services.publish({ t: 'presence', place: this.place, change: { kind: 'media', participantId: this.participantId, media } });
    // A state that arrived during the write goes out in the next slot.
    this.scheduleMedia();
  }

  private publishHand(again = false): void {
    if (this.stopped || (!again && this.raised === this.announcedHand)) return;
    this.announcedHand = this.raised;
    this.lastHandAt = Date.now();
    this.connection.services.publish({ t: 'presence', place: this.place, change: { kind: 'hand', participantId: this.participantId, raised: this.raised } });
  }
}
