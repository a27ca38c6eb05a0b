/**
 * @module test/browser/browser-suite
 * The set-up most browser suites share: a SQLite database, one Foyer
 * server on it, an organization with the suite's members, one Chromium,
 * and every person a test opened closed when that test ends (pages left
 * in a call keep encoding and decoding video: a suite's later tests ran
 * ever slower beside them).
 */
import { after, afterEach, before } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Config } from '../../src/config.ts';
import type { OrganizationType } from '../../src/domain/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { launch, type Participant } from './support.ts';

export interface BrowserSuite {
  readonly db: TestDatabase;
  readonly server: TestServer;
  readonly seeded: SeededOrganization;
  readonly browser: Browser;
  /** Browser contexts to close after each test. */
  readonly opened: Participant[];
}

export interface BrowserSuiteOptions {
  type: OrganizationType;
  members: Array<{ email: string; fullName: string; role?: 'USER' | 'ADMIN' }>;
  config?: Partial<Config>;
}

/** Registers the set-up in the calling `describe`; the handles are valid inside its tests and later hooks. */
export function useBrowserSuite(options: BrowserSuiteOptions): BrowserSuite {
  let db: TestDatabase;
  let server: TestServer;
  let seeded: SeededOrganization;
  let browser: Browser;
  const opened: Participant[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, options.config);
    seeded = await seedOrganization(server.ctx, options.type, options.members);
    browser = await launch();
  });
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await db?.dispose();
  });

  return {
    get db() {
      return db;
    },
    get server() {
      return server;
    },
    get seeded() {
      return seeded;
    },
    get browser() {
      return browser;
    },
    opened,
  };
}
