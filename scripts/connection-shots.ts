/**
 * @module scripts/connection-shots
 * Screenshots of connections that do not carry media, at 1280 and 390 px,
 * in English and German, for a person to look at: connecting, can't reach
 * them with "Try again", the same with the hint after repeated failure,
 * the participant list then, reconnecting mid-call, and the meeting
 * connection lost and back. Real flow in headless Chromium with fake
 * devices, relay-only through coturn on loopback (a wrong secret for the
 * failures, a frozen coturn for reconnecting), Foyer on in-memory SQLite.
 * Prints, per run, how long after joining the page said it could not
 * connect and when the hint came.
 *
 *   node --import tsx scripts/connection-shots.ts [--out DIR]
 */
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { loadConfig } from '../src/config.ts';
import { operatorActor } from '../src/domain/actors.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { startCoturn } from '../test/support/coturn.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';
import { outFolder, pageAt, saveShot } from './shots.ts';

const out = outFolder(process.argv.slice(2), '/tmp/connection-shots');
const turn = await startCoturn();
const db = await openTestDatabase('sqlite');
const relay = (secret: string) => loadConfig({ ICE_SERVERS: turn.urls.join(','), TURN_SECRET: secret, ICE_TRANSPORT_POLICY: 'relay' }).ice;
const good = await startServer(db.store, { ice: relay(turn.secret), publicUrl: 'http://localhost:3000' });
const wrong = await startServer(db.store, { ice: relay(`not-${turn.secret}`), publicUrl: 'http://localhost:3000' });
const seeded = await seedOrganization(good.ctx, 'basic');
const org = operatorActor(seeded.organization);
const browser: Browser = await launch();

const phase = (p: Page, want: string) => p.waitForFunction((w) => (window as any).foyer?.phase() === w, want, { timeout: 30_000 });
const tile = (state: string) => `.tile:not(.self)[data-peer-state="${state}"]`;

/** Joins `name` at `url` with the meeting socket through a switch the caller can cut. */
type Sockets = { cut: boolean; routes: Array<{ page: WebSocketRoute; server: WebSocketRoute }> };

async function joined(url: string, name: string, width: number, sockets?: Sockets): Promise<{ p: Page; at: number }> {
  const p = await pageAt(browser, good.origin, width);
  if (sockets) {
    await p.routeWebSocket(/\/ws$/, (ws) => {
      if (sockets.cut) return void ws.close({ code: 1001, reason: 'Server shutting down.' });
      sockets.routes.push({ page: ws, server: ws.connectToServer() });
    });
  }
  await p.goto(`${url}&displayName=${encodeURIComponent(name)}&skipPrejoin=true`);
  await phase(p, 'call');
  return { p, at: Date.now() };
}

try {
  for (const width of [1280, 390]) {
    for (const lang of ['en', 'de']) {
      const opened: Page[] = [];
      // One meeting per scene: the two instances share presence but not signalling.
      const newPath = async () => `/meetings/${(await createMeeting(good.ctx, org, { title: 'Weekly case review' } as any)).id}?lang=${lang}`;
      let path = await newPath();

      // A refused TURN credential: connecting, then can't reach them, then the hint.
      const ann = await joined(wrong.origin + path, 'Ann Lee', width);
      const bob = await joined(wrong.origin + path, 'Bob Marchetti-Villanueva', width);
      opened.push(ann.p, bob.p);
      await ann.p.waitForSelector(tile('connecting'));
      await saveShot(out, ann.p, 'peer-connecting', width, lang);
      await ann.p.waitForSelector(tile('failed'), { timeout: 30_000 });
      const failedAfter = Date.now() - bob.at;
      await saveShot(out, ann.p, 'peer-failed', width, lang);
      await ann.p.waitForSelector(`${tile('failed')} .tip:not([hidden])`, { timeout: 60_000 });
      const hintAfter = Date.now() - bob.at;
      await saveShot(out, ann.p, 'peer-failed-hint', width, lang);
      await ann.p.click('#people-toggle');
      await ann.p.waitForSelector('#people-list .connection[data-state="failed"]');
      await saveShot(out, ann.p, 'peer-failed-list', width, lang);
      console.log(`${width} ${lang}: "can't reach" ${(failedAfter / 1000).toFixed(1)} s after the second join, hint after ${(hintAfter / 1000).toFixed(1)} s`);

      // A relay that goes silent mid-call: reconnecting.
      path = await newPath();
      const cat = await joined(good.origin + path, 'Cat Novak', width);
      const dan = await joined(good.origin + path, 'Dan Okafor', width);
      opened.push(cat.p, dan.p);
      await cat.p.waitForSelector(tile('connected'), { timeout: 30_000 });
      turn.pause();
      try {
        await cat.p.waitForSelector(tile('reconnecting'), { timeout: 30_000 });
        await saveShot(out, cat.p, 'peer-reconnecting', width, lang);
      } finally {
        turn.resume();
      }

      // The meeting connection lost, media going on, and back.
      path = await newPath();
      const sockets: Sockets = { cut: false, routes: [] };
      const eve = await joined(good.origin + path, 'Eve Lindqvist', width, sockets);
      const fay = await joined(good.origin + path, 'Fay Brennan', width, sockets);
      opened.push(eve.p, fay.p);
      await eve.p.waitForSelector(`${tile('connected')}:has-text("Fay")`, { timeout: 30_000 });
      sockets.cut = true;
      // As a server going away: the pages see 1001 first, then the server sees the sockets close
      // (a browser's WebSocket closes with 1000 only: the server side gets no code).
      for (const route of sockets.routes) await route.page.close({ code: 1001, reason: 'Server shutting down.' });
      for (const route of sockets.routes.splice(0)) await route.server.close();
      await eve.p.waitForSelector('#notice[data-sticky]');
      await saveShot(out, eve.p, 'signalling-lost', width, lang);
      sockets.cut = false;
      await eve.p.waitForSelector('#notice[data-back]', { timeout: 30_000 });
      await eve.p.waitForFunction(() => (window as any).foyer.participants().length === 2, undefined, { timeout: 30_000 });
      await eve.p.waitForSelector(`${tile('connected')}:has-text("Fay")`, { timeout: 30_000 });
      await saveShot(out, eve.p, 'signalling-back', width, lang);

      for (const p of opened) await p.context().close();
    }
  }
} finally {
  await browser.close();
  await wrong.close();
  await good.close();
  await db.dispose();
  await turn.stop();
}
