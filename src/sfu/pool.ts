/**
 * @module sfu/pool
 * The Janus servers this Foyer instance uses: its own (JANUS_BIN, one
 * server labelled `local@<host name>`) or a pool run elsewhere
 * (JANUS_URLS, each labelled by host and port). The pool
 * - keeps a connection to each server and knows which are up;
 * - answers where a place's SFU room is (placing it when needed, by
 *   the rules of src/domain/sfu/placement.ts) and creates that room on its
 *   server when it does not exist yet;
 * - places a dead server's places again on the live servers as
 *   soon as it notices the death, and whenever a server comes up while
 *   others are down (a place whose server is down and no other is up waits);
 * - destroys a place's room and forgets its placement when the meeting or
 *   the room session ends.
 * `moved` tells the rest of this instance that a place now lives elsewhere
 * (its participants' SFU connections must be made again).
 */
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import type { SfuConfig } from '../config-sfu.ts';
import type { EventPublisher } from '../domain/events.ts';
import type { PlaceRef } from '../domain/presence.ts';
import type { Placement, PlacementStore, ServerLoad } from '../domain/sfu/placement-store.ts';
import { placeOf, replaceFrom, type PlacementOptions } from '../domain/sfu/placement.ts';
import { stunServerOf } from './janus-config.ts';
import { JanusServer, SfuUnavailableError, type JanusServerTuning } from './janus-server.ts';
import { LocalJanus, type LaunchLog } from './launcher.ts';
import { serverLabel } from './mode.ts';
import { newRoomId } from './rooms.ts';

export interface SfuPoolOptions {
  sfu: SfuConfig;
  /** STUN servers of ICE_SERVERS: the local Janus learns its public address from the first. */
  iceUrls: readonly string[];
  store: PlacementStore;
  events: EventPublisher;
  log: LaunchLog;
  now?: () => Date;
  /** Presence of instances not seen for this long does not count as load (the realtime instance TTL). */
  instanceTtlMs?: number;
  tuning?: Partial<JanusServerTuning>;
  /** The local Janus gathers ICE candidates on these interfaces only (tests: `lo`). */
  iceInterfaces?: string;
}

/** Where a place's media goes: a server that is up, and the room on it (which exists). */
export interface PlacedRoom {
  server: JanusServer;
  room: number;
  placement: Placement;
}

export type PoolHealth = 'ok' | 'degraded' | 'down';

/** How many released rooms are remembered (each was a meeting that ended on this instance). */
const RELEASED_KEPT = 10_000;

export class SfuPool extends EventEmitter<{ moved: [Placement, string] }> {
  readonly kind: 'local' | 'pool';
  readonly servers: readonly JanusServer[];
  private readonly local: LocalJanus | undefined;
  private readonly now: () => Date;
  /**
   * Rooms destroyed when their place ended: a link's step that read the
   * placement just before must not create the room again (ids are never reused).
   */
  private readonly released = new Set<number>();
  /** Rooms known to exist, per server, since it last came up. */
  private readonly ensured = new Map<JanusServer, Set<number>>();
  private unsubscribe: (() => void) | undefined;
  private replacing: Promise<void> = Promise.resolve();

  constructor(private readonly options: SfuPoolOptions) {
    super();
    const { janus } = options.sfu;
    if (janus.kind === 'none') throw new Error('no SFU is configured');
    this.kind = janus.kind;
    this.now = options.now ?? (() => new Date());
    if (janus.kind === 'local') {
      this.local = new LocalJanus({
        bin: janus.bin,
        rtpPorts: options.sfu.rtpPorts,
        publicIp: options.sfu.publicIp,
        stun: stunServerOf(options.iceUrls),
        iceInterfaces: options.iceInterfaces,
        log: options.log,
      });
      const server = new JanusServer(`local@${hostname()}`, undefined, options.log, options.tuning);
      this.local.on('up', (endpoint) => server.setEndpoint(endpoint));
      this.local.on('down', () => server.setEndpoint(undefined));
      this.servers = [server];
    } else {
      this.servers = janus.urls.map((url) => new JanusServer(serverLabel(url), { url, apiSecret: janus.apiSecret }, options.log, options.tuning));
    }
    for (const server of this.servers) {
      this.ensured.set(server, new Set());
      server.on('up', () => {
        this.ensured.set(server, new Set());
        this.replaceDead();
      });
      server.on('down', () => this.replaceDead());
    }
  }

  start(): void {
    this.unsubscribe = this.options.events.subscribe((event) => {
      if (event.type === 'meeting.ended') void this.release({ kind: 'meeting', id: event.meetingId });
      if (event.type === 'room.session.ended') void this.release({ kind: 'session', id: event.sessionId });
    });
    for (const server of this.servers) server.start();
    this.local?.start().catch((error: Error) => this.options.log.error(`Local Janus did not start: ${error.message}; trying again.`));
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await Promise.all(this.servers.map((s) => s.stop()));
    await this.local?.stop();
    await this.replacing;
  }

  /** The process id of the Janus this instance started, while it runs. */
  get localPid(): number | undefined {
    return this.local?.pid;
  }

  /** The servers as this instance sees them now. */
  status(): Array<{ label: string; up: boolean }> {
    return this.servers.map((s) => ({ label: s.label, up: s.up }));
  }

  /** `degraded` while some but not all servers answer, `down` when none does. */
  health(): PoolHealth {
    const up = this.servers.filter((s) => s.up).length;
    return up === this.servers.length ? 'ok' : up > 0 ? 'degraded' : 'down';
  }

  /** Rooms and participants per server label (the database's view, shared by every instance). */
  loads(): Promise<ServerLoad[]> {
    return this.options.store.placementLoads(this.staleBefore());
  }

  /**
   * The room of `place`, on a server that is up, created if needed;
   * undefined while no server can take it (the place stays peer-to-peer).
   */
  async roomFor(place: PlaceRef): Promise<PlacedRoom | undefined> {
    const { placement } = await placeOf(place, this.placementOptions());
    if (!placement) return undefined;
    const server = this.servers.find((s) => s.label === placement.server);
    if (!server?.up || this.released.has(placement.room)) return undefined;
    await this.ensure(server, placement.room);
    return { server, room: placement.room, placement };
  }

  /** Whether the place has a placement (it uses the SFU, on whichever server). */
  async isPlaced(place: PlaceRef): Promise<boolean> {
    return (await this.options.store.findPlacement(place)) !== undefined;
  }

  /** Kicks one publisher out of the place's room: their media stops at once. */
  async kick(place: PlaceRef, feed: number): Promise<'kicked' | 'absent'> {
    const placement = await this.options.store.findPlacement(place);
    const server = placement && this.servers.find((s) => s.label === placement.server);
    if (!placement || !server) return 'absent';
    return server.kick(placement.room, feed);
  }

  /** Forgets where the place was and destroys its room (which cuts everyone's media in it). */
  async release(place: PlaceRef): Promise<void> {
    try {
      const placement = await this.options.store.deletePlacement(place);
      if (!placement) return;
      const server = this.servers.find((s) => s.label === placement.server);
      this.released.add(placement.room);
      if (this.released.size > RELEASED_KEPT) this.released.delete(this.released.values().next().value!);
      this.ensured.get(server!)?.delete(placement.room);
      if (server?.up) {
        const result = await server.destroyRoom(placement.room);
        this.options.log.info(`SFU room ${placement.room} of ${place.kind}:${place.id} on ${placement.server}: ${result}.`);
      }
    } catch (error) {
      // A server that is down lost the room anyway; one that comes back holds an empty room, which costs nothing.
      if (!(error instanceof SfuUnavailableError)) this.options.log.warn(`Could not release an SFU room: ${(error as Error).message}`);
    }
  }

  private async ensure(server: JanusServer, room: number): Promise<void> {
    const known = this.ensured.get(server)!;
    if (known.has(room)) return;
    await server.ensureRoom(room);
    if (this.released.has(room)) {
      // Released while it was being made: it goes again.
      await server.destroyRoom(room).catch(() => {});
      throw new SfuUnavailableError(`the SFU room ${room} was released`);
    }
    known.add(room);
  }

  /** Places every place of a down server again; one pass at a time, the next one waits. */
  private replaceDead(): void {
    this.replacing = this.replacing.then(async () => {
      for (const dead of this.servers.filter((s) => !s.up)) {
        try {
          for (const placement of await replaceFrom(dead.label, this.placementOptions())) {
            const target = this.servers.find((s) => s.label === placement.server);
            if (target?.up) await this.ensure(target, placement.room).catch(() => {});
            this.options.log.info(`Place ${placement.place.kind}:${placement.place.id} moved from Janus ${dead.label} to ${placement.server}.`);
            this.emit('moved', placement, dead.label);
          }
        } catch (error) {
          this.options.log.warn(`Could not place the meetings of Janus ${dead.label} again: ${(error as Error).message}`);
        }
      }
    });
  }

  private placementOptions(): PlacementOptions {
    return { store: this.options.store, servers: this.status(), staleBefore: this.staleBefore(), newRoom: newRoomId, at: this.now() };
  }

  private staleBefore(): Date {
    return new Date(this.now().getTime() - (this.options.instanceTtlMs ?? 15_000));
  }
}
