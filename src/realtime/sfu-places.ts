/**
 * @module realtime/sfu-places
 * Which places this instance's participants take part in through the SFU,
 * and telling them so (`sfu` `use`). A place moves to the SFU when its
 * participant list reaches SFU_FROM_PARTICIPANTS people, and stays on it
 * until it ends, however few remain: a place that has a placement uses the
 * SFU. Every instance decides alike without asking the others: the lists
 * it holds are the same everywhere (deltas on the bus), and the placement
 * is in the database.
 *
 * Telling is all this does: each participant's SFU link places the place
 * (pool.roomFor) when it joins the room, as its participant is told, so the
 * first link to ask records the placement and every other one, on any
 * instance, reads it.
 */
import { placeKey, type PlaceRef } from '../domain/presence.ts';
import type { PlacedRoom } from '../sfu/pool.ts';
import type { Registry } from './registry.ts';

/** What the realtime side uses of the SFU pool (src/sfu/pool.ts). */
export interface SfuRouting {
  /** A place moves to the SFU when this many people are present. */
  readonly fromParticipants: number;
  /** At most this many videos a participant receives at once. */
  readonly videoSlots: number;
  /** The place's SFU room, placed (recorded for every instance) and created when needed; undefined while no Janus can take it. */
  roomFor(place: PlaceRef): Promise<PlacedRoom | undefined>;
  /** Whether the place uses the SFU already (it has a placement). */
  isPlaced(place: PlaceRef): Promise<boolean>;
}


export class SfuPlaces {
  /** Places held here that use the SFU. */
  private readonly using = new Set<string>();
  /** Places held here whose placement was looked up already. */
  private readonly looked = new Set<string>();

  constructor(
    private readonly registry: Registry,
    private readonly sfu: () => SfuRouting | undefined,
    private readonly log: { warn(object: object, message: string): void },
  ) {}

  /** Whether the place uses the SFU, as this instance knows it now. */
  uses(place: PlaceRef): boolean {
    return this.using.has(placeKey(place));
  }

  /** The place's list held here has `count` people (a participant entered here, or a delta arrived). */
  counted(place: PlaceRef, count: number): void {
    const sfu = this.sfu();
    if (!sfu) return;
    const key = placeKey(place);
    if (this.using.has(key) || count >= sfu.fromParticipants) {
      this.use(place);
      return;
    }
    if (this.looked.has(key)) return;
    this.looked.add(key);
    // A place that moved to the SFU earlier stays on it (a meeting of three that is two now, a newcomer here).
    sfu.isPlaced(place).then(
      (placed) => {
        if (placed && this.looked.has(key)) this.use(place);
      },
      (error: Error) => this.log.warn({ err: error }, 'sfu: could not read a placement; the place stays peer-to-peer here for now'),
    );
  }

  /** No participant of the place is left here. */
  released(place: PlaceRef): void {
    const key = placeKey(place);
    this.using.delete(key);
    this.looked.delete(key);
  }

  private use(place: PlaceRef): void {
    this.using.add(placeKey(place));
    for (const participant of this.registry.participants(place)) participant.useSfu();
  }
}
