/**
 * @module realtime/sweeper
 * The lifecycle sweeper of one instance: on an interval it runs the
 * domain's sweep (heartbeat, reap dead instances, close what is due; the
 * closes reach the hub as domain events), tells the places that lost
 * participants, asks everyone to rejoin when this instance was taken for
 * dead, and ends local calls of places that ended elsewhere.
 */
import { endedElsewhere, retireInstance, sweep } from '../domain/lifecycle.ts';
import { sweepWaiting } from '../domain/waiting/sweep.ts';
import type { PlaceRef } from '../domain/presence.ts';
import type { HubServices } from './contracts.ts';
import { CloseCode } from './protocol.ts';

/** What the sweeper needs from the hub: its connections and their places. */
export interface SweeperHost extends HubServices {
  places(): PlaceRef[];
  all(): Array<{ close(code: number, reason: string): void }>;
  endLocal(place: PlaceRef, reason: 'closed' | 'deleted'): void;
}

export class Sweeper {
  readonly intervalMs: number;
  /** Sweeps run since start, for metrics. */
  runs = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly hub: SweeperHost,
    intervalMs?: number,
  ) {
    // A quarter of the idle time, within 0.25 s and 2 s: prompt closing with short test idle times, little load otherwise.
    this.intervalMs = intervalMs ?? Math.min(2000, Math.max(250, (hub.ctx.idleCloseSeconds * 1000) / 4));
  }

  /** Sweeps once (registering this instance), then on the interval. */
  async start(): Promise<void> {
    this.runs += 1;
    await sweep(this.hub.ctx);
    const loop = async () => {
      if (this.stopped) return;
      await this.hub.track(this.tick());
      if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
    };
    this.timer = setTimeout(loop, this.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** A clean shutdown: this instance's participants leave now, and the others are told. */
  async retire(): Promise<void> {
    try {
      for (const place of await retireInstance(this.hub.ctx)) this.hub.publish({ t: 'presence', place });
    } catch (error) {
      this.hub.log.error({ err: error }, 'realtime: could not retire this instance');
    }
  }

  private async tick(): Promise<void> {
    const { hub } = this;
    this.runs += 1;
    try {
      const result = await sweep(hub.ctx);
      for (const place of result.changed) hub.publish({ t: 'presence', place });
      if (!result.instanceKnown) {
        // Another instance took us for dead and removed our presence: have everyone rejoin.
        hub.log.warn({}, 'realtime: this instance was reaped as dead; asking its participants to rejoin');
        for (const c of hub.all()) c.close(CloseCode.rejoin, 'Please rejoin.');
      }
      for (const { place, reason } of await endedElsewhere(hub.ctx, hub.places())) hub.endLocal(place, reason);
      await sweepWaiting(hub.ctx);
    } catch (error) {
      hub.log.error({ err: error }, 'realtime: lifecycle sweep failed');
    }
  }
}
