/**
 * @module http/metrics
 * What an operator's Prometheus scrapes from one instance (prom-client):
 * requests by route and status with latency, rate-limit refusals by kind,
 * open WebSocket connections, meetings open, sweeper runs and closes,
 * Redis availability, the database pool, and Node's own figures (event
 * loop lag, memory, CPU). Counters are bumped by hooks and listeners;
 * gauges are read when scraped, so nothing is computed between scrapes.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DomainContext } from '../domain/context.ts';
import type { StoreConnection } from '../domain/ports/store.ts';

export interface MetricsSources {
  ctx: DomainContext;
  database: Pick<StoreConnection, 'countOpenMeetings' | 'pool'>;
  /** Open signalling connections on this instance. */
  connections(): number;
  /** True while Redis answers; absent when this instance runs without Redis. */
  redisUp?: () => boolean;
  /** Lifecycle sweeps run by this instance. */
  sweeps?(): { runs: number };
  /** The SFU pool, when one is configured. */
  sfu?: {
    status(): Array<{ label: string; up: boolean }>;
    loads(): Promise<Array<{ server: string; rooms: number; participants: number }>>;
  };
}

/** Scraped more often than this, the count of open meetings (a database query) is reused. */
const OPEN_MEETINGS_TTL_MS = 10_000;

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly refusals: Counter<'kind'>;
  private openMeetings: { value: number; at: number } | undefined;
  /** The SFU's rooms and participants: one database query, shared by the gauges collecting while it runs. */
  private sfuLoads: Promise<Array<{ server: string; rooms: number; participants: number }>> | undefined;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'foyer_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'foyer_http_request_duration_seconds',
      help: 'Time from receiving a request to answering it, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.refusals = new Counter({
      name: 'foyer_rate_limit_refusals_total',
      help: 'Requests refused with 429, by the limit that refused them: auth-failures (per address), key-rate (per key), quota (per organization).',
      labelNames: ['kind'],
      registers,
    });
    const ended = new Counter({
      name: 'foyer_meetings_ended_total',
      help: 'Meetings ended, by reason: closed (the idle rule or a sweeper) or deleted.',
      labelNames: ['reason'],
      registers,
    });
    sources.ctx.events.subscribe((event) => {
      if (event.type === 'meeting.ended') ended.inc({ reason: event.reason });
    });
    const self = this;
    new Gauge({
      name: 'foyer_websocket_connections',
      help: 'Signalling (WebSocket) connections open on this instance.',
      registers,
      collect() {
        this.set(sources.connections());
      },
    });
    new Gauge({
      name: 'foyer_meetings_open',
      help: 'Meetings of every organization neither closed nor deleted (read from the database at most every 10 s).',
      registers,
      async collect() {
        this.set(await self.countOpenMeetings());
      },
    });
    new Gauge({
      name: 'foyer_sweeper_runs',
      help: 'Lifecycle sweeps run by this instance since it started.',
      registers,
      collect() {
        this.set(sources.sweeps?.().runs ?? 0);
      },
    });
    const redisUp = sources.redisUp;
    if (redisUp) {
      new Gauge({
        name: 'foyer_redis_up',
        help: '1 while Redis answers, 0 while it does not (present only with REDIS_URL).',
        registers,
        collect() {
          this.set(redisUp() ? 1 : 0);
        },
      });
    }
    const sfu = sources.sfu;
    if (sfu) {
      new Gauge({
        name: 'foyer_sfu_servers_up',
        help: '1 while a Janus server of the SFU pool answers this instance, 0 while it does not, per server (present only with an SFU).',
        labelNames: ['server'],
        registers,
        collect() {
          for (const s of sfu.status()) this.set({ server: s.label }, s.up ? 1 : 0);
        },
      });
      const perServer = (name: string, help: string, pick: 'rooms' | 'participants') =>
        new Gauge({
          name,
          help,
          labelNames: ['server'],
          registers,
          async collect() {
            this.reset();
            const loads = await self.loadsOfSfu(sfu);
            for (const s of sfu.status()) this.set({ server: s.label }, 0);
            for (const l of loads) this.set({ server: l.server }, l[pick]);
          },
        });
      perServer('foyer_sfu_rooms', 'Places (meetings and room sessions) placed on each Janus server (one VideoRoom room each), from the database: the same on every instance.', 'rooms');
      perServer('foyer_sfu_participants', 'Participants present in the places placed on each Janus server, from the database: the same on every instance.', 'participants');
    }
    new Gauge({
      name: 'foyer_database_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting for one); absent on SQLite.',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.database.pool?.();
        if (!pool) return;
        for (const [state, value] of Object.entries(pool)) this.set({ state }, value);
      },
    });
  }

  /** Counts one answered request; `route` is the route's pattern (never the raw URL, which carries ids and tokens). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, seconds);
  }

  refused(kind: string): void {
    this.refusals.inc({ kind });
  }

  private loadsOfSfu(sfu: NonNullable<MetricsSources['sfu']>) {
    this.sfuLoads ??= sfu.loads().finally(() => {
      this.sfuLoads = undefined;
    });
    return this.sfuLoads;
  }

  private async countOpenMeetings(): Promise<number> {
    const now = Date.now();
    if (!this.openMeetings || now - this.openMeetings.at > OPEN_MEETINGS_TTL_MS) {
      this.openMeetings = { value: await this.sources.database.countOpenMeetings(this.sources.ctx.now()), at: now };
    }
    return this.openMeetings.value;
  }
}
