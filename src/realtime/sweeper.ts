/**
 * @module realtime/sweeper
 * The lifecycle sweeper of one instance: on an interval it runs the
 * domain's sweep (heartbeat, reap dead instances, close what is due; the
 * departures and closes reach every instance as domain events, see
 * event-translator.ts), asks everyone to rejoin when this instance was
 * taken for dead, and ends local calls of places that ended elsewhere.
 */
import { endedElsewhere, retireInstance, sweep } from '../domain/lifecycle.ts';
import { sweepWaiting } from '../domain/waiting/sweep.ts';
import { CloseCode } from './protocol.ts';
import type { RealtimeServices } from './session.ts';

export class Sweeper {
  readonly intervalMs: number;
  /** Sweeps run since start, for metrics. */
  runs = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly services: RealtimeServices,
    intervalMs?: number,
  ) {
    // A quarter of the idle time, within 0.25 s and 2 s: prompt closing with short test idle times, little load otherwise.
    this.intervalMs = intervalMs ?? Math.min(2000, Math.max(250, (services.ctx.idleCloseSeconds * 1000) / 4));
  }

  /** Sweeps once (registering this instance), then on the interval. */
  async start(): Promise<void> {
    this.runs += 1;
    await sweep(this.services.ctx);
    const loop = async () => {
      if (this.stopped) return;
      await this.services.track(this.tick());
      if (!this.stopped) this.timer = setTimeout(loop, this.intervalMs);
    };
    this.timer = setTimeout(loop, this.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** A clean shutdown: this instance's participants leave now (the others hear it as deltas). */
  async retire(): Promise<void> {
    try {
      await retireInstance(this.services.ctx);
    } catch (error) {
      this.services.log.error({ err: error }, 'realtime: could not retire this instance');
    }
  }

  private async tick(): Promise<void> {
    const { services } = this;
    this.runs += 1;
    try {
      const result = await sweep(services.ctx);
      if (!result.instanceKnown) {
        // Another instance took us for dead and removed our presence: have everyone rejoin.
        services.log.warn({}, 'realtime: this instance was reaped as dead; asking its participants to rejoin');
        for (const c of services.registry.all()) c.close(CloseCode.rejoin, 'Please rejoin.');
      }
      for (const { place, reason } of await endedElsewhere(services.ctx, services.registry.places())) services.registry.end(place, reason);
      await sweepWaiting(services.ctx);
    } catch (error) {
      services.log.error({ err: error }, 'realtime: lifecycle sweep failed');
    }
  }
}
