/**
 * @module test/support/server
 * A real Foyer HTTP server for black-box API tests: `buildApp` listening on
 * 127.0.0.1 with an OS-chosen port, over a store from `databases.ts`, plus
 * seed helpers that create organizations, users and key pairs through the
 * domain commands (the operator's path), and a small fetch client.
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createApiKey, keyOrganization, revokeApiKey } from '../../src/domain/keys.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import type { ApiKey, Organization, OrganizationType, User } from '../../src/domain/types.ts';
import { createLimits, type Limits } from '../../src/limits/limits.ts';
import { createLogger, type LoggerSetting } from '../../src/logger.ts';
import type { RealtimeTuning } from '../../src/realtime/realtime.ts';
import { createServer, type FoyerServer, type ServerParts } from '../../src/server.ts';

export const TEST_PUBLIC_URL = 'http://meet.foyer.test';

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** origin + API prefix: the spec's `{base_url}`. */
  baseUrl: string;
  config: Config;
  /** The same store and settings the server uses, for seeding. */
  ctx: DomainContext;
  app: FastifyInstance;
  /** The request limits and usage counter, when started with `limits: true`. */
  limits?: Limits;
  /** The SFU pool, when the configuration names one. */
  sfu: FoyerServer['sfu'];
  close(): Promise<void>;
}

export async function startServer(
  store: StoreConnection,
  overrides: Partial<Config> = {},
  options: { now?: () => Date; logger?: LoggerSetting; realtime?: RealtimeTuning; limits?: boolean; sfu?: ServerParts['sfu'] } = {},
): Promise<TestServer> {
  const config: Config = {
    ...loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, API_SECRET_PEPPER: 'test-pepper', LOG_LEVEL: 'silent' }),
    ...overrides,
  };
  const now = options.now ?? (() => new Date());
  const logger = createLogger(config, options.logger ?? false);
  // As `npm start` has them: rate limits, quotas and usage totals (flushed on demand by tests).
  const limits = options.limits ? await createLimits({ config, store, warn: (message) => logger.warn(message), now: () => now().getTime() }) : undefined;
  const { app, ctx, sfu } = await createServer({ config, store, now, logger, realtime: options.realtime, limits, sfu: options.sfu });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('server has no address');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    baseUrl: origin + config.apiPrefix,
    config,
    ctx,
    app,
    limits,
    sfu,
    close: async () => {
      await app.close();
      await limits?.close();
    },
  };
}

export interface Credentials {
  key: ApiKey;
  secret: string;
  /** `API_KEY` and `API_SECRET` headers for fetch. */
  headers: Record<string, string>;
}

export function credentialHeaders(publicKey: string, secret: string): Record<string, string> {
  return { API_KEY: publicKey, API_SECRET: secret };
}

export interface SeededOrganization extends Credentials {
  organization: Organization;
  users: User[];
}

let counter = 0;

/** A fresh organization of `type` with `users` (default: one ADMIN) and a key pair without expiry. */
export async function seedOrganization(
  ctx: DomainContext,
  type: OrganizationType,
  users: Array<{ email: string; fullName: string; role?: 'USER' | 'ADMIN' }> = [
    { email: 'ann.lee@example.test', fullName: 'Ann Lee', role: 'ADMIN' },
  ],
): Promise<SeededOrganization> {
  counter += 1;
  const name = `Org ${type} ${counter} ${Math.random().toString(36).slice(2, 8)}`;
  const organization = await createOrganization(ctx, { name, type });
  const created: User[] = [];
  for (const user of users) created.push(await addUser(ctx, operatorActor(organization), user));
  const credentials = await issueKey(ctx, organization);
  return { organization, users: created, ...credentials };
}

/**
 * Issues a key pair. `expiresAt` in the past is possible by passing `issuedAt`
 * before it: the domain refuses to issue an already expired key.
 */
export async function issueKey(
  ctx: DomainContext,
  organization: Organization,
  options: { expiresAt?: Date | null; issuedAt?: Date } = {},
): Promise<Credentials> {
  const issuing: DomainContext = options.issuedAt ? { ...ctx, now: () => options.issuedAt! } : ctx;
  const { key, secret } = await createApiKey(issuing, operatorActor(organization), { expiresAt: options.expiresAt ?? null });
  return { key, secret, headers: credentialHeaders(key.publicKey, secret) };
}

export async function revokeKey(ctx: DomainContext, key: ApiKey): Promise<void> {
  await revokeApiKey(ctx, operatorActor(await keyOrganization(ctx, key.publicKey)), key.publicKey);
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON and problem+json answers, else the text. */
  body: any;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Raw body with an explicit content type. */
  raw?: { body: string; contentType: string };
}

/** One HTTP request with global fetch; never follows redirects. */
export async function request(url: string, method: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.raw) {
    headers['content-type'] = options.raw.contentType;
    body = options.raw.body;
  }
  const response = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let parsed: unknown = text;
  if (/json/.test(type) && text !== '') parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** A client bound to a base URL and a set of credentials. */
export function client(baseUrl: string, credentials: { headers: Record<string, string> }) {
  const call = (method: string) => (path: string, options: RequestOptions = {}) =>
    request(baseUrl + path, method, { ...options, headers: { ...credentials.headers, ...options.headers } });
  return { get: call('GET'), post: call('POST'), delete: call('DELETE'), put: call('PUT') };
}

export type Client = ReturnType<typeof client>;
