/**
 * @module test/api/harness
 * Shared set-up of the black-box API suites: for one storage, a fresh
 * database, a real listening server over it, and three seeded organizations
 * (medical, basic, and a stranger whose objects must never be visible),
 * each with a key pair and a fetch client.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Config } from '../../src/config.ts';
import type { TestDatabase, TestDatabaseFactory } from '../support/databases.ts';
import { client, seedOrganization, startServer, type ApiResponse, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';

export const PUBLIC_URL = 'http://meet.foyer.test';

export interface ApiEnv {
  db: TestDatabase;
  server: TestServer;
  medical: SeededOrganization;
  basic: SeededOrganization;
  stranger: SeededOrganization;
  /** Clients of the medical organization, basic organization, and stranger. */
  med: Client;
  bas: Client;
  str: Client;
}

export const MEDICAL_USERS = [
  { email: 'Ann.Lee@clinic.test', fullName: 'Ann Lee', role: 'ADMIN' as const },
  { email: 'bob@clinic.test', fullName: 'Bob Stone', role: 'USER' as const },
];

/** Registers before/after hooks in the calling describe; the object is filled in `before`. */
export function useApi(factory: TestDatabaseFactory, overrides: Partial<Config> = {}): ApiEnv {
  const env = {} as ApiEnv;
  before(async () => {
    env.db = await factory.open();
    env.server = await startServer(env.db.store, { publicUrl: PUBLIC_URL, ...overrides });
    env.medical = await seedOrganization(env.server.ctx, 'medical', MEDICAL_USERS);
    env.basic = await seedOrganization(env.server.ctx, 'basic', [{ email: 'cat@basic.test', fullName: 'Cat Basic' }]);
    env.stranger = await seedOrganization(env.server.ctx, 'medical', [{ email: 'zed@elsewhere.test', fullName: 'Zed Else' }]);
    env.med = client(env.server.baseUrl, env.medical);
    env.bas = client(env.server.baseUrl, env.basic);
    env.str = client(env.server.baseUrl, env.stranger);
  });
  after(async () => {
    await env.server?.close();
    await env.db?.dispose();
  });
  return env;
}

let sequence = 0;
/** A slug unique within a run. */
export function uniqueSlug(prefix = 'place'): string {
  sequence += 1;
  return `${prefix}-${sequence}-${Math.random().toString(36).slice(2, 7)}`;
}

export function keysOf(body: unknown): string[] {
  return Object.keys(body as object).sort();
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Asserts an RFC 9457 problem with `status`, `type`, and (optionally) exactly these invalid fields. */
export function assertProblem(res: ApiResponse, status: number, type: string, fields?: string[]): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(res.body.type, `urn:foyer:problem:${type}`);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
  assert.equal(typeof res.body.detail, 'string');
  for (const key of Object.keys(res.body)) assert.ok(['type', 'title', 'status', 'detail', 'errors'].includes(key), `unexpected key ${key}`);
  if (fields) {
    assert.deepEqual(
      (res.body.errors ?? []).map((e: { field: string }) => e.field).sort(),
      [...fields].sort(),
      `fields of ${res.text}`,
    );
  }
}

/** Only the 201 of a create is success. */
export function assertCreated(res: ApiResponse): void {
  assert.equal(res.status, 201, `expected 201, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
}

export function assertOk(res: ApiResponse): void {
  assert.equal(res.status, 200, `expected 200, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
}
