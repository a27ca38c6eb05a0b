/**
 * @module scripts/sfu-share-shots
 * Screenshots of a screen shared in a meeting on the SFU, for a person to
 * look at: Ann shares (Chromium's fake screen), and Bob's page (1280 px)
 * and Cat's (390 px, a phone) show what the others see, her screen as the
 * large tile and her camera beside it; Ann's page shows her own view.
 * Real flow in headless Chromium against Foyer with its own Janus on
 * loopback (Debian's `janus`), on an in-memory SQLite database; apart from
 * scripts/call-shots.ts, which needs no Janus.
 *
 *   node --import tsx scripts/sfu-share-shots.ts [--out DIR] [--lang en|de]
 */
import type { Page } from 'playwright-core';
import { openTestDatabase } from '../test/support/databases.ts';
import { client, seedOrganization, startServer } from '../test/support/server.ts';
import { joinAs, launch } from '../test/browser/support.ts';
import { JANUS_BIN, testRtpPorts } from '../test/sfu/support.ts';
import { outFolder, pageAt, saveShot } from './shots.ts';

const args = process.argv.slice(2);
const out = outFolder(args, '/tmp/sfu-share-shots');
const lang = args.includes('--lang') ? args[args.indexOf('--lang') + 1]! : 'en';
if (!JANUS_BIN) throw new Error('Janus not found (apt-get install janus)');

const db = await openTestDatabase('sqlite');
const server = await startServer(
  db.store,
  { sfu: { janus: { kind: 'local', bin: JANUS_BIN }, rtpPorts: testRtpPorts(), publicIp: undefined, fromParticipants: 3, videoSlots: 9 } },
  { sfu: { iceInterfaces: 'lo' } },
);
const browser = await launch();

try {
  const seeded = await seedOrganization(server.ctx, 'basic');
  const created = await client(server.baseUrl, seeded).post('/v3/meeting', { json: { title: 'Quarterly figures' } });
  const redirect = new URL(created.body.redirectUrl);
  const url = `${server.origin}${redirect.pathname}${redirect.search}${redirect.search ? '&' : '?'}lang=${lang}`;
  for (let i = 0; server.sfu!.health() !== 'ok'; i++) {
    if (i > 300) throw new Error('the local Janus did not come up');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Through the pre-join screen: a skipPrejoin link turns no camera on.
  const join = async (name: string, width: number): Promise<Page> => {
    const p = await pageAt(browser, server.origin, width);
    await p.goto(url);
    await joinAs(p, name, 60_000);
    return p;
  };
  const [ann, bob, cat] = await Promise.all([join('Ann Lee', 1280), join('Bob Marchetti-Villanueva', 1280), join('Cat', 390)]);
  const annId: string = await ann.evaluate(() => (window as any).foyer.selfId());
  for (const p of [ann, bob, cat]) {
    await p.waitForFunction(() => {
      const path = (window as any).foyer.mediaPath();
      return path.mode === 'sfu' && path.connections === 2;
    }, undefined, { timeout: 60_000 });
  }
  await ann.click('#share');
  for (const p of [bob, cat]) {
    // The screen's tile on the stage, with a picture in it.
    await p.waitForFunction((id) => {
      const video = document.querySelector(`.tile.on-stage[data-id="screen:${id}"] video`) as HTMLVideoElement | null;
      return Boolean(video && video.videoWidth > 0);
    }, annId, { timeout: 60_000 });
  }
  await bob.waitForTimeout(2000);
  await saveShot(out, bob, 'sfu-share-viewer', 1280, lang);
  await saveShot(out, cat, 'sfu-share-viewer', 390, lang);
  await saveShot(out, ann, 'sfu-share-sharer', 1280, lang);
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}
