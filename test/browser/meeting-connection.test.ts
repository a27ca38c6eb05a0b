/**
 * A meeting page's connection in real headless Chromium: a lost offer
 * negotiated again, rejoining with media after a server restart (1001) and
 * a reaped instance (4503), backoff between reconnects, and final screens
 * after refusals (4400, 4429) without reconnecting.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Page, WebSocketRoute } from 'playwright-core';
import { liveContext, retireInstance } from '../../src/domain/lifecycle.ts';
import { createLogger } from '../../src/logger.ts';
import { createServer } from '../../src/server.ts';
import { startServer } from '../support/server.ts';
import { browserSkipReason, joinAs, onlyRemote, waitForGrowth, waitForParticipants, waitUntil, type Participant } from './support.ts';
import { listed, media, useMeetingSuite, WAIT, waitForMedia } from './meeting-suite.ts';
import { peerStates } from './turn-support.ts';

describe('meeting connections in Chromium', { skip: browserSkipReason() }, () => {
  const s = useMeetingSuite();

  it('negotiates again when an offer is lost, and ignores candidates of a connection it does not have', async () => {
    // Each page's first offer vanishes on the way (only the offering side sends any).
    const tally = { dropped: 0, iceAfterDrop: 0 };
    const loseFirstOffer = async (page: Page) => {
      let dropped = false;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => {
          const type = JSON.parse(String(message)).type;
          if (type === 'offer' && !dropped) {
            dropped = true;
            tally.dropped += 1;
            return;
          }
          if (type === 'ice' && dropped) tally.iceAfterDrop += 1;
          server.send(message);
        });
      });
    };
    const { ann, bob } = await s.pair(await s.newMeeting(), { ann: { setup: loseFirstOffer }, bob: { setup: loseFirstOffer } });
    await waitUntil('the first offer dropped and its candidates relayed', async () => tally.dropped === 1 && tally.iceAfterDrop > 0);
    // Those candidates reach the answering side, which has no connection for
    // them and makes none: only the offering side has one, still unconnected.
    await new Promise((r) => setTimeout(r, 500));
    const stats = await Promise.all([ann, bob].map((p) => p.page.evaluate(() => (window as any).foyer.stats())));
    const states = stats.flatMap((s) => Object.values(s).map((peer: any) => peer.state));
    assert.equal(states.length, 1, `one connection in all: ${JSON.stringify(stats)}`);
    assert.notEqual(states[0], 'connected');
    // Once the bound for carrying media has passed (8 s), the offering side offers again, and video flows both ways.
    for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5, 60_000);
    assert.equal(tally.dropped, 1);
  });

  it('rejoins with media after a server restart (1001) and after its instance was reaped (4503), still sharing', async () => {
    let srv = await startServer(s.db.store);
    const port = Number(new URL(srv.origin).port);
    try {
      const { ann, bob } = await s.pair(await s.newMeeting(srv));
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5);
      const selfId = (p: Participant) => p.page.evaluate(() => (window as any).foyer.phase() === 'call' && ((window as any).foyer.selfId() as string));
      const firstIds = await Promise.all([ann, bob].map(selfId));

      // A restart: the old server says 1001, the pages find nobody for a
      // moment (1006), back off, and come back as new participants. The new
      // server has an instance id known here so that it can be reaped below.
      await srv.close();
      const instanceId = `restarted-${randomUUID()}`;
      const { app, ctx } = await createServer({ config: srv.config, store: s.db.store, logger: createLogger(srv.config, false), realtime: { instanceId } });
      const live = liveContext(ctx, { instanceId, instanceTtlMs: 15_000 });
      await app.listen({ host: '127.0.0.1', port });
      srv = { ...srv, app, close: () => app.close() };
      for (const p of [ann, bob]) {
        await waitUntil('a rejoin after the restart', async () => {
          const id = await selfId(p);
          return id && !firstIds.includes(id);
        });
        await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
        assert.equal((await p.page.evaluate(() => (window as any).foyer.closes()))[0], 1001);
      }
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5);

      // Bob shares; then the instance is taken for dead (its presence removed
      // as another instance would): its next sweep asks everyone to rejoin.
      const bobBefore = await selfId(bob);
      await bob.page.click('#share');
      await waitForMedia(bob, { audio: true, video: true, screen: true });
      await waitUntil('Ann seeing the screen', async () => {
        const r = await onlyRemote(ann.page);
        return r && r.frameHeight > 0 && r.frameWidth / r.frameHeight > 1.6;
      });
      await retireInstance(live);
      await waitUntil('Bob rejoining after 4503', async () => {
        const id = await selfId(bob);
        return id && id !== bobBefore;
      });
      assert.ok((await bob.page.evaluate(() => (window as any).foyer.closes())).includes(4503));
      await waitForParticipants(ann.page, ['Ann', 'Bob'], WAIT);
      // The rejoin still sends the screen, not the camera, and says so.
      assert.equal((await media(bob)).screen, true);
      await ann.page.waitForSelector(listed('Bob', 'sharing screen'), { state: 'attached', timeout: WAIT });
      await waitUntil('the screen (16:9) again on Ann\'s side', async () => {
        const r = await onlyRemote(ann.page);
        return r && r.frameHeight > 0 && r.frameWidth / r.frameHeight > 1.6;
      });
      await waitForGrowth(bob.page, 'framesDecoded', 5);
    } finally {
      for (const p of s.opened.splice(0)) await p.context.close().catch(() => {});
      await srv.close();
    }
  });

  it('keeps video flowing while the meeting connection is lost, says so, rejoins and says who is still there', async () => {
    // Both pages' sockets go through a gate: closed, the server seems gone (1001) and refuses new attempts.
    const gate = { open: true, sockets: [] as Array<{ page: WebSocketRoute; server: WebSocketRoute }> };
    const through = (page: Page) =>
      page.routeWebSocket(/\/ws$/, (ws) => {
        if (!gate.open) return void ws.close({ code: 1001, reason: 'Server shutting down.' });
        gate.sockets.push({ page: ws, server: ws.connectToServer() });
      });
    const { ann, bob } = await s.pair(await s.newMeeting(), { ann: { setup: through }, bob: { setup: through } });
    for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5);
    const selfId = (p: Participant) => p.page.evaluate(() => (window as any).foyer.selfId() as string);
    const before = await Promise.all([ann, bob].map(selfId));

    gate.open = false;
    // The pages first, so that neither hears of the other leaving: as when the server itself goes.
    for (const socket of gate.sockets) await socket.page.close({ code: 1001, reason: 'Server shutting down.' });
    for (const socket of gate.sockets.splice(0)) await socket.server.close().catch(() => {});
    for (const p of [ann, bob]) {
      await p.page.waitForSelector('#notice:has-text("Connection to the meeting lost")', { timeout: WAIT });
      // Media does not need the socket: still arriving, the connection still up.
      await waitForGrowth(p.page, 'framesDecoded', 10);
      assert.deepEqual(await peerStates(p.page), [{ state: 'connected', attempt: 1 }]);
    }
    await waitUntil('a few refused attempts', async () => (await ann.page.evaluate(() => (window as any).foyer.closes())).length >= 3);

    gate.open = true;
    for (const p of [ann, bob]) {
      await waitUntil('a rejoin', async () => (await p.page.evaluate(() => (window as any).foyer.phase())) === 'call' && !before.includes(await selfId(p)));
      await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
    }
    await ann.page.waitForSelector('#notice:has-text("Connected again. Still here: Bob.")', { timeout: WAIT });
    await bob.page.waitForSelector('#notice:has-text("Connected again. Still here: Ann.")', { timeout: WAIT });
    for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5);
  });

  it('backs off between reconnects, doubling, and starts over once joined', async () => {
    const url = await s.newMeeting();
    const attempts: number[] = [];
    let joined: WebSocketRoute | undefined;
    const { page } = await s.open(url, {
      setup: (p) =>
        p.routeWebSocket(/\/ws$/, (ws) => {
          attempts.push(Date.now());
          // A server going away three times in a row; the fourth attempt and later get through.
          if (attempts.length < 4) {
            ws.close({ code: 1001, reason: 'Server shutting down.' });
          } else {
            joined ??= ws;
            ws.connectToServer();
          }
        }),
    });
    await page.fill('#name', 'Ann');
    await page.click('#join');
    await page.waitForFunction(() => (window as any).foyer.phase() === 'call', undefined, { timeout: WAIT });
    // The page's own waits: 1 s, 2 s, 4 s, each ±20 %...
    const delays: number[] = await page.evaluate(() => (window as any).foyer.retryDelays());
    assert.equal(delays.length, 3);
    [1000, 2000, 4000].forEach((base, i) => assert.ok(delays[i]! >= base * 0.8 && delays[i]! <= base * 1.2, `waits ${delays}`));
    // ...and really waited (a loaded machine can only add to them).
    const gaps = attempts.slice(1, 4).map((at, i) => at - attempts[i]!);
    gaps.forEach((gap, i) => assert.ok(gap >= delays[i]! - 100, `attempts ${gaps} ms apart, waits ${delays}`));

    // Joined: the next drop is retried after about 1 s again, not 8 s.
    await joined!.close({ code: 1001, reason: 'Server shutting down.' });
    await waitUntil('a reconnect after the join', async () => attempts.length > 4);
    const after: number[] = await page.evaluate(() => (window as any).foyer.retryDelays());
    assert.ok(after[3]! >= 800 && after[3]! <= 1200, `wait after the join: ${after[3]}`);
    await page.waitForFunction(() => (window as any).foyer.phase() === 'call', undefined, { timeout: WAIT });
    assert.deepEqual(await page.evaluate(() => (window as any).foyer.closes()), [1001, 1001, 1001, 1001]);
  });

  it('shows a final error screen after 4400 and 4429 and does not reconnect', async () => {
    const url = await s.newMeeting();
    const host = await s.open(url);
    await joinAs(host.page, 'Host', WAIT);
    const routed = async (lang: string) => {
      const route = { opens: 0, server: undefined as WebSocketRoute | undefined };
      const p = await s.open(url + `?lang=${lang}`, {
        setup: (page) =>
          page.routeWebSocket(/\/ws$/, (ws) => {
            route.opens += 1;
            route.server = ws.connectToServer();
          }),
      });
      return { ...p, route };
    };
    const bad = await routed('en');
    const flood = await routed('de');
    await joinAs(bad.page, 'Bad', WAIT);
    await joinAs(flood.page, 'Flood', WAIT);
    await waitForParticipants(host.page, ['Bad', 'Flood', 'Host'], WAIT);

    // As if the page had sent garbage, and as if it had flooded the server.
    bad.route.server!.send('this is not JSON');
    for (let i = 0; i < 501; i += 1) flood.route.server!.send('{"type":"ping"}');

    await bad.page.waitForSelector('#finished[data-kind="failed"][data-code="4400"]', { timeout: WAIT });
    await flood.page.waitForSelector('#finished[data-kind="failed"][data-code="4429"]', { timeout: WAIT });
    assert.match(await bad.page.textContent('#finished h1') ?? '', /cannot be restored automatically/);
    assert.match(await flood.page.textContent('#finished h1') ?? '', /nicht automatisch wiederhergestellt/);
    assert.equal(await flood.page.textContent('#rejoin'), 'Erneut versuchen');
    await waitForParticipants(host.page, ['Host'], WAIT);
    // Well past the first retry (about 1 s): still one connection each, nothing scheduled, nobody back.
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal(bad.route.opens, 1);
    assert.equal(flood.route.opens, 1);
    for (const p of [bad, flood]) {
      assert.deepEqual(await p.page.evaluate(() => [(window as any).foyer.phase(), (window as any).foyer.retryDelays()]), ['failed', []]);
    }
    assert.deepEqual(await host.page.evaluate(() => (window as any).foyer.participants()), ['Host']);
  });
});
