/**
 * @module test/browser/turn-support
 * What the relay-only browser suites share: coturn on loopback
 * (test/support/coturn.ts), one SQLite database, and two Foyer instances
 * that send every browser through the relay (ICE_TRANSPORT_POLICY=relay):
 * one with coturn's secret, one with a wrong secret (an operator's typo),
 * each recording its own log lines; plus what a page received of its TURN
 * settings and how a connection's state looks on the page.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { startCoturn, type Coturn } from '../support/coturn.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { pageUrl } from './meeting-suite.ts';
import { remoteStats } from './support.ts';

export interface TurnSuite {
  readonly turn: Coturn;
  readonly db: TestDatabase;
  /** Foyer with coturn's secret. */
  readonly server: TestServer;
  /** Foyer with another secret: every credential it issues is refused. */
  readonly wrongSecret: TestServer;
  /** Everything both instances logged (at debug level). */
  readonly serverLog: string[];
  /** A new meeting's page URL on `srv`. */
  newMeeting(srv: TestServer): Promise<string>;
}

/** Registers the set-up in the calling `describe` and returns its handles (valid inside tests). */
export function useTurnSuite(): TurnSuite {
  let turn: Coturn;
  let db: TestDatabase;
  let server: TestServer;
  let wrongSecret: TestServer;
  let api: Client;
  const serverLog: string[] = [];
  const logger = { stream: new Writable({ write: (chunk, _encoding, done) => (serverLog.push(String(chunk)), done()) }) };

  before(async () => {
    turn = await startCoturn();
    db = await openTestDatabase('sqlite');
    const relay = (secret: string) => loadConfig({ ICE_SERVERS: turn.urls.join(','), TURN_SECRET: secret, ICE_TRANSPORT_POLICY: 'relay' }).ice;
    server = await startServer(db.store, { ice: relay(turn.secret), logLevel: 'debug' }, { logger });
    wrongSecret = await startServer(db.store, { ice: relay(`not-${turn.secret}`), logLevel: 'debug' }, { logger });
    api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
  });
  after(async () => {
    await wrongSecret?.close();
    await server?.close();
    await db?.dispose();
    await turn?.stop();
  });

  return {
    get turn() { return turn; },
    get db() { return db; },
    get server() { return server; },
    get wrongSecret() { return wrongSecret; },
    serverLog,
    async newMeeting(srv: TestServer) {
      const created = await api.post('/v3/meeting', { json: {} });
      assert.equal(created.status, 201, created.text);
      return pageUrl(srv, created.body.redirectUrl);
    },
  };
}

/** The ICE settings the page was given (its settings data block). */
export async function pageIce(page: Page): Promise<{ iceServers: Array<{ urls: string[]; username?: string; credential?: string }>; iceTransportPolicy: string }> {
  return page.evaluate(() => JSON.parse(document.getElementById('foyer-settings')!.textContent!));
}

/** The page's TURN username and credential, checked to be what coturn's `use-auth-secret` expects of `secret`. */
export async function turnCredential(page: Page, secret: string): Promise<{ username: string; expiresAt: number }> {
  const settings = await pageIce(page);
  assert.equal(settings.iceTransportPolicy, 'relay');
  const turn = settings.iceServers.find((s) => s.username);
  assert.ok(turn?.username && turn.credential, `a TURN entry with credentials: ${JSON.stringify(settings.iceServers.map((s) => s.urls))}`);
  assert.match(turn.username, /^\d+:foyer$/);
  assert.equal(turn.credential, createHmac('sha1', secret).update(turn.username).digest('base64'));
  return { username: turn.username, expiresAt: Number(turn.username.split(':')[0]) };
}

/** The tile of remote participant `name`, in connection state `state`. */
export const tileIn = (name: string, state: string) => `.tile:not(.self)[data-peer-state="${state}"]:has(figcaption:has-text("${name}"))`;

/** Every remote connection's reported state on `page` (window.foyer.peerStates()). */
export async function peerStates(page: Page): Promise<Array<{ state: string; attempt: number; hint?: string }>> {
  return page.evaluate(() => Object.values((window as any).foyer.peerStates()));
}

/**
 * Media to and from the only remote goes through the relay at both ends:
 * this side sends from its relay allocation, to the other side's (ports in
 * coturn's relay range). The other side's relay address may have been
 * learned from its first check before its candidate arrived ("prflx").
 */
export async function assertRelayed(page: Page, turn: Coturn): Promise<void> {
  const paths = Object.values(await remoteStats(page)).map((r) => r.path);
  assert.equal(paths.length, 1, JSON.stringify(paths));
  const path = paths[0]!;
  const relayed = (port: number | null) => port !== null && port >= turn.relayPorts.min && port <= turn.relayPorts.max;
  assert.ok(path && path.local === 'relay' && ['relay', 'prflx'].includes(path.remote!) && relayed(path.localPort) && relayed(path.remotePort), `relay to relay within ${JSON.stringify(turn.relayPorts)}: ${JSON.stringify(path)}`);
}

/**
 * Gives the page a TURN credential coturn refuses (as if copied from another service): its settings block is
 * changed as the parser inserts it, before any module reads it.
 */
export async function refuseCredential(page: Page): Promise<void> {
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      const settings = document.getElementById('foyer-settings');
      if (!settings) return;
      settings.textContent = settings.textContent!.replace(/"credential":"[^"]+"/, '"credential":"refused"');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
}
