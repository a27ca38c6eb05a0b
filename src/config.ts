/**
 * @module config
 * Every setting Foyer reads, from the environment, validated once at start.
 * Nothing else in the code reads `process.env`, so this file is the complete
 * list of knobs (the README's configuration table mirrors it). The SFU's
 * settings are parsed in config-sfu.ts.
 */
import { SfuConfigError, sfuConfig, type SfuConfig } from './config-sfu.ts';
import { SLUG_RESERVATION_DEFAULT_DAYS, SLUG_RESERVATION_MIN_DAYS } from './domain/slugs.ts';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** The spec's `{redirect_host}`: where participants meet. No trailing slash. */
  publicUrl: string;
  /** Path prefix of the API; `{base_url}` is publicUrl + apiPrefix. '' allowed. */
  apiPrefix: string;
  redisUrl: string | undefined;
  idleCloseSeconds: number;
  rateLimitPerMinute: number;
  /** Namespace of every Redis key Foyer writes, so deployments (and tests) can share one Redis. */
  redisKeyPrefix: string;
  /** Failed authentications per client address per rolling minute before that address is refused without a database lookup. */
  authFailuresPerMinute: number;
  /** How often counted request totals are written to the database, in batches. */
  usageFlushSeconds: number;
  /** How long a verified API key is trusted without re-reading it: the bound on how late a revocation takes effect. */
  apiKeyCacheSeconds: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify `trustProxy`):
   * false (default), true (any), or a comma list of proxy addresses/CIDRs.
   */
  trustProxy: boolean | string;
  /** Key of the API-secret hash; changing it invalidates every key pair. */
  secretPepper: string;
  /** False when API_SECRET_PEPPER is unset and the public built-in value is used (start warns). */
  secretPepperSet: boolean;
  /** After SIGTERM, how long `/ready` answers 503 while requests are still served, so load balancers stop routing here first. */
  shutdownDrainSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `pretty`: one readable line per entry (pino-pretty); `json`: one JSON object per line; `auto`: pretty when standard output is a terminal. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Bearer token that `/metrics` requires; without one `/metrics` is not served. */
  metricsToken: string | undefined;
  /** STUN/TURN servers handed to browsers (ICE_SERVERS, TURN_*); see docs/video.md. */
  ice: IceConfig;
  /** CSP `frame-ancestors` source list of the meeting pages: who may embed them in an iframe. */
  frameAncestors: string;
  /** A dashboard session without a request for this long ends. */
  sessionIdleMinutes: number;
  /** A dashboard session ends this long after sign-in, whatever the activity. */
  sessionMaxHours: number;
  /** log2 of scrypt's N for new password hashes; 17 (OWASP's 128 MiB) unless lowered for small machines or tests. */
  passwordHashCost: number;
  /** A waiting client who reloads or loses the network keeps their place this long; a member away from a call this long hands the client back. */
  waitingGraceSeconds: number;
  /** A participant whose signalling socket drops without leaving is kept this long (shown as reconnecting) and may resume as the same participant; 0: they leave at once. */
  resumeGraceSeconds: number;
  /** A member who accepted a client must join the call within this time, or the client returns to the front of the line. */
  waitingLeaseSeconds: number;
  /** Places one client address may hold in one waiting list at once; 0: no cap (docs/security.md). */
  waitingPerAddress: number;
  /** Places one waiting list holds at most; 0: no cap. */
  waitingPerList: number;
  /** How long a slug an organization gave up stays reserved to it (at least 90 days). */
  slugReservationDays: number;
  /** HTTP server timeouts, in ms (see `httpTimeouts`); tests set them below a second. */
  http: HttpTimeouts;
  /** Open signalling WebSockets per client address on one instance; 0: no cap. */
  wsConnectionsPerAddress: number;
  /** Mail to members (invitation and reset links); undefined without SMTP_URL, and then no mail is sent or offered. */
  mail: MailConfig | undefined;
  /**
   * Key that seals the organizations' single sign-on client secrets in the
   * database (SSO_SECRET_KEY, at least 32 characters); undefined when unset,
   * and then single sign-on cannot be configured or used.
   */
  ssoSecretKey: string | undefined;
  /** Webhook endpoints may point to loopback, link-local and private addresses (and use http): receivers on the operator's own network. */
  webhookAllowPrivate: boolean;
  /** Delays before each webhook retry; a delivery fails after the last (default about 28 hours in all). */
  webhookRetryDelaysMs: number[];
  /** Time to connect to a webhook receiver. */
  webhookConnectTimeoutMs: number;
  /** Time for a webhook receiver to answer, connection included. */
  webhookResponseTimeoutMs: number;
  /** An endpoint failing this long without a single success is disabled. */
  webhookDisableAfterMs: number;
  /** How often each instance looks for due webhook deliveries (its own events are sent at once). */
  webhookPollMs: number;
  /** How long finished deliveries stay in the delivery log. */
  webhookLogDays: number;
  /** The SFU (Janus) behind meetings of several people, or none (see config-sfu.ts). */
  sfu: SfuConfig;
}

export interface MailConfig {
  /** smtp:// or smtps:// with user and password if the server wants them (nodemailer's connection URL). */
  smtpUrl: string;
  /** The sender: an address, or `Name <address>`. */
  from: string;
}

/**
 * What stops slow and idle connections from holding the server: a client
 * must send a request's complete headers within `headersTimeoutMs` of
 * connecting (or of its previous request: this covers WebSocket upgrades
 * too, which are requests until upgraded), and the whole request within
 * `requestTimeoutMs`; Node answers 408 and closes the connection otherwise.
 * An idle keep-alive connection is closed after `keepAliveTimeoutMs`,
 * longer than the 60 s idle timeout of common load balancers and nginx's
 * upstream keep-alive, so that the proxy, not Foyer, closes an idle
 * connection first (else the proxy may reuse one Foyer is closing).
 */
export interface HttpTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export interface IceConfig {
  /** stun:, turn: and turns: URLs. */
  urls: string[];
  /** Static TURN credentials (TURN_USERNAME / TURN_CREDENTIAL), or undefined. */
  username: string | undefined;
  credential: string | undefined;
  /** coturn `static-auth-secret` (TURN_SECRET): Foyer then issues short-lived TURN credentials per page. */
  turnSecret: string | undefined;
  /**
   * ICE_TRANSPORT_POLICY: `relay` makes every browser use the TURN relay only,
   * so participants never learn each other's addresses (and tests can prove
   * the relay path); `all` (default) lets direct paths win.
   */
  transportPolicy: 'all' | 'relay';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type { SfuConfig };

function sfu(env: Env): SfuConfig {
  try {
    return sfuConfig(env);
  } catch (error) {
    if (error instanceof SfuConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}".`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}.`);
  return value;
}

function url(name: string, raw: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}".`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => p + '//').join(' or ')}, got "${raw}".`);
  }
  return raw;
}

function trustProxy(env: Env): boolean | string {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (!/^[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*$/.test(raw)) {
    throw new ConfigError(`TRUST_PROXY must be true, false or a comma list of proxy addresses/CIDRs, got "${raw}".`);
  }
  return raw;
}

function redisKeyPrefix(env: Env): string {
  const prefix = env.REDIS_KEY_PREFIX?.trim() || 'foyer:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(prefix)) {
    throw new ConfigError(`REDIS_KEY_PREFIX must be 1-64 letters, digits or :_.-, got "${prefix}".`);
  }
  return prefix;
}

function iceConfig(env: Env): IceConfig {
  const urls = (env.ICE_SERVERS ?? '').split(/[\s,]+/).filter(Boolean);
  for (const u of urls) {
    if (!/^(stun|stuns|turn|turns):[A-Za-z0-9.\-\[\]:]+(\?transport=(udp|tcp))?$/.test(u)) {
      throw new ConfigError(`ICE_SERVERS holds stun:, turn: or turns: URLs separated by commas, got "${u}".`);
    }
  }
  const username = env.TURN_USERNAME?.trim() || undefined;
  const credential = env.TURN_CREDENTIAL || undefined;
  const turnSecret = env.TURN_SECRET || undefined;
  if ((username === undefined) !== (credential === undefined)) {
    throw new ConfigError('TURN_USERNAME and TURN_CREDENTIAL are set together.');
  }
  if (turnSecret && username) throw new ConfigError('Set either TURN_SECRET or TURN_USERNAME/TURN_CREDENTIAL, not both.');
  const transportPolicy = env.ICE_TRANSPORT_POLICY?.trim() || 'all';
  if (transportPolicy !== 'all' && transportPolicy !== 'relay') throw new ConfigError(`ICE_TRANSPORT_POLICY is all or relay, got "${transportPolicy}".`);
  if (transportPolicy === 'relay' && !urls.some((u) => u.startsWith('turn'))) {
    throw new ConfigError('ICE_TRANSPORT_POLICY=relay needs a turn: or turns: URL in ICE_SERVERS: without a relay no call can connect.');
  }
  return { urls, username, credential, turnSecret, transportPolicy };
}

/** `*`, `'self'`, `'none'`, schemes (`https:`) and origins (`https://*.example.com:8443`), space-separated. */
function frameAncestors(env: Env): string {
  const raw = env.FRAME_ANCESTORS?.trim() || '*';
  const tokens = raw.split(/\s+/);
  const source = /^(\*|'self'|'none'|[a-z][a-z0-9+.-]*:|([a-z][a-z0-9+.-]*:\/\/)?(\*\.)?[A-Za-z0-9.-]+(:(\d{1,5}|\*))?)$/;
  for (const token of tokens) {
    if (!source.test(token)) throw new ConfigError(`FRAME_ANCESTORS holds CSP sources such as * 'self' https://app.example.com, got "${token}".`);
  }
  if (tokens.includes("'none'") && tokens.length > 1) throw new ConfigError("FRAME_ANCESTORS: 'none' stands alone.");
  return tokens.join(' ');
}

function mailConfig(env: Env): MailConfig | undefined {
  const smtpUrl = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim();
  if (!smtpUrl) {
    if (from) throw new ConfigError('MAIL_FROM is set but SMTP_URL is not: set both to send mail.');
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(smtpUrl);
  } catch {
    // Not echoed: the URL may hold the mail server's password.
    throw new ConfigError('SMTP_URL must be a URL such as smtps://user:password@mail.example.org:465.');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  if (!from) throw new ConfigError('SMTP_URL is set but MAIL_FROM is not: the sender address, such as "Foyer <foyer@example.org>".');
  if (!/^([^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+>?$/.test(from)) throw new ConfigError(`MAIL_FROM must be an address or "Name <address>", got "${from}".`);
  return { smtpUrl, from };
}

function ssoSecretKey(env: Env): string | undefined {
  const key = env.SSO_SECRET_KEY;
  if (!key) return undefined;
  if (key.length < 32) throw new ConfigError('SSO_SECRET_KEY must be at least 32 characters (a long random value).');
  return key;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}".`);
}

const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5,300,1800,7200,18000,36000,36000';

/** Seconds between retries, comma-separated: 1 to 30 delays of 1 s to 2 days each. */
function retrySchedule(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE?.trim() || DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const parts = raw.split(/\s*,\s*/);
  if (parts.length > 30 || !parts.every((p) => /^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= 172_800)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE is 1 to 30 delays in seconds (1 to 172800) separated by commas, got "${raw}".`);
  }
  return parts.map((p) => Number(p) * 1000);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST?.trim() || '0.0.0.0';
  // An address or a host name; listen() would otherwise fail with a bare resolver error.
  if (!/^([A-Za-z0-9.-]+|\[?[0-9A-Fa-f:.]+\]?)$/.test(host)) throw new ConfigError(`HOST must be an address such as 0.0.0.0, 127.0.0.1 or ::, got "${host}".`);

  const databaseUrl = env.DATABASE_URL?.trim() || 'sqlite:./data/foyer.db';
  if (!/^sqlite:.+/.test(databaseUrl) && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      `DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…, got "${databaseUrl.replace(/\/\/[^@]*@/, '//***@')}".`,
    );
  }

  const publicUrl = url('PUBLIC_URL', env.PUBLIC_URL?.trim() || `http://localhost:${port}`, ['http:', 'https:']).replace(/\/+$/, '');

  const apiPrefix = (env.API_PREFIX ?? '/api').trim().replace(/\/+$/, '');
  if (apiPrefix !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(apiPrefix)) {
    throw new ConfigError(`API_PREFIX must be a path such as /api (or empty), got "${apiPrefix}".`);
  }

  const redisRaw = env.REDIS_URL?.trim();
  const redisUrl = redisRaw ? url('REDIS_URL', redisRaw, ['redis:', 'rediss:']) : undefined;

  const http: HttpTimeouts = {
    headersTimeoutMs: integer(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 10, 1, 300) * 1000,
    requestTimeoutMs: integer(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 30, 1, 3600) * 1000,
    keepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 75, 1, 3600) * 1000,
  };
  // Node refuses a headers timeout beyond the request timeout.
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_SECONDS must not exceed HTTP_REQUEST_TIMEOUT_SECONDS.');
  }

  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}.`);

  const logFormat = (env.LOG_FORMAT?.trim() || 'auto') as Config['logFormat'];
  if (!['auto', 'json', 'pretty'].includes(logFormat)) throw new ConfigError(`LOG_FORMAT must be auto, json or pretty, got "${logFormat}".`);
  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  // A scrape token is a password for the operator's monitoring: refuse one that could be guessed.
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters long.');

  return {
    port,
    host,
    databaseUrl,
    publicUrl,
    apiPrefix,
    redisUrl,
    idleCloseSeconds: integer(env, 'IDLE_CLOSE_SECONDS', 900, 1, 31 * 24 * 3600),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 1000, 1, 10_000_000),
    redisKeyPrefix: redisKeyPrefix(env),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    usageFlushSeconds: integer(env, 'USAGE_FLUSH_SECONDS', 5, 1, 3600),
    apiKeyCacheSeconds: integer(env, 'API_KEY_CACHE_SECONDS', 5, 0, 300),
    trustProxy: trustProxy(env),
    secretPepper: env.API_SECRET_PEPPER || 'foyer/api-secret/v1',
    secretPepperSet: Boolean(env.API_SECRET_PEPPER),
    shutdownDrainSeconds: integer(env, 'SHUTDOWN_DRAIN_SECONDS', 0, 0, 300),
    logLevel,
    logFormat,
    metricsToken,
    ice: iceConfig(env),
    frameAncestors: frameAncestors(env),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 60, 1, 7 * 24 * 60),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 12, 1, 30 * 24),
    passwordHashCost: integer(env, 'PASSWORD_HASH_COST', 17, 14, 20),
    waitingGraceSeconds: integer(env, 'WAITING_GRACE_SECONDS', 60, 5, 3600),
    waitingLeaseSeconds: integer(env, 'WAITING_LEASE_SECONDS', 30, 5, 600),
    resumeGraceSeconds: integer(env, 'RESUME_GRACE_SECONDS', 30, 0, 600),
    waitingPerAddress: integer(env, 'WAITING_PER_ADDRESS', 20, 0, 100_000),
    waitingPerList: integer(env, 'WAITING_PER_LIST', 1000, 0, 1_000_000),
    slugReservationDays: integer(env, 'SLUG_RESERVATION_DAYS', SLUG_RESERVATION_DEFAULT_DAYS, SLUG_RESERVATION_MIN_DAYS, 36_500),
    http,
    wsConnectionsPerAddress: integer(env, 'WS_CONNECTIONS_PER_ADDRESS', 100, 0, 1_000_000),
    mail: mailConfig(env),
    ssoSecretKey: ssoSecretKey(env),
    webhookAllowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookRetryDelaysMs: retrySchedule(env),
    webhookConnectTimeoutMs: integer(env, 'WEBHOOK_CONNECT_TIMEOUT_MS', 3000, 100, 30_000),
    webhookResponseTimeoutMs: integer(env, 'WEBHOOK_RESPONSE_TIMEOUT_MS', 10_000, 100, 30_000),
    webhookDisableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 72, 1, 30 * 24) * 3600_000,
    webhookPollMs: integer(env, 'WEBHOOK_POLL_MS', 1000, 50, 60_000),
    webhookLogDays: integer(env, 'WEBHOOK_LOG_DAYS', 30, 1, 3650),
    sfu: sfu(env),
  };
}
