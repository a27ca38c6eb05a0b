/**
 * @module scripts/try-call
 * A call tried as people would, for a person to read and look at: Ann at a
 * desk (Chromium, 1280 px), Bob on a phone (Chromium, 390 px) and Fox in
 * Firefox join one meeting; Cat joins with a camera that answers 4 s after
 * Join (a late permission); then Cat and Fox leave and the call is two
 * again. Prints when each person sees the others' video, and saves a
 * screenshot of Ann and Bob at four people and at two. Fake devices, one
 * Foyer on an in-memory SQLite database, peer-to-peer (no SFU). With
 * `--sfu`, Foyer starts its own Janus (Debian's `janus`): the meeting moves
 * to it at three, and with four people Janus is killed (SIGKILL) and the
 * time until everyone sees everyone again is printed. `--lang de` shoots
 * the German pages.
 *
 *   node --import tsx scripts/try-call.ts [--out DIR] [--sfu] [--lang en|de]
 */
import type { Page } from 'playwright-core';
import { operatorActor } from '../src/domain/actors.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launchFirefox, openFirefoxParticipant } from '../test/browser/firefox-support.ts';
import { answerMedia, framesDecoded, HELD_MEDIA_SCRIPT, joinAs, launch, openParticipant, waitForParticipants, type Participant } from '../test/browser/support.ts';
import { FAST } from '../test/sfu/meeting-pages.ts';
import { JANUS_BIN, testRtpPorts } from '../test/sfu/support.ts';
import { outFolder, saveShot } from './shots.ts';

const args = process.argv.slice(2);
const out = outFolder(args, '/tmp/try-call');
const sfu = args.includes('--sfu');
const lang = args.includes('--lang') ? args[args.indexOf('--lang') + 1]! : 'en';
if (sfu && !JANUS_BIN) throw new Error('--sfu needs Janus (apt-get install janus)');
const WAIT = 60_000;

/**
 * Resolves with the ms it took until `page` decodes video from exactly `count` others, each growing (a count
 * that restarts belongs to a new connection: the move to the SFU, a Janus restarted).
 */
async function seesVideoOf(page: Page, count: number, since: number): Promise<number> {
  let last = await framesDecoded(page);
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await framesDecoded(page);
    const growing = Object.entries(now).filter(([id, n]) => n > 0 && n !== (last[id] ?? 0));
    last = now;
    if (Object.keys(now).length === count && growing.length === count) return Date.now() - since;
    if (Date.now() - since > WAIT) throw new Error(`no video from ${count} others within ${WAIT} ms: ${JSON.stringify(now)}`);
  }
}

const db = await openTestDatabase('sqlite');
const server = await startServer(
  db.store,
  {
    publicUrl: 'http://localhost:3000',
    ...(sfu ? { sfu: { janus: { kind: 'local' as const, bin: JANUS_BIN! }, rtpPorts: testRtpPorts(), publicIp: undefined, fromParticipants: 3, videoSlots: 9 } } : {}),
  },
  sfu ? { sfu: { tuning: FAST, iceInterfaces: 'lo' } } : {},
);
const seeded = await seedOrganization(server.ctx, 'medical');
const chromium = await launch({ cameraFps: 20 }); // a camera as fast as Chromium's own: timings as people would see them
const firefox = await launchFirefox();
const opened: Participant[] = [];
try {
  const meeting = await createMeeting(server.ctx, operatorActor(seeded.organization), { title: 'Case review', ownerEmail: seeded.users[0]!.email });
  const url = `${server.origin}/meetings/${meeting.id}?lang=${lang}`;
  const start = Date.now();
  const ann = await openParticipant(chromium, url);
  const bob = await openParticipant(chromium, url);
  await bob.page.setViewportSize({ width: 390, height: 844 });
  const fox = await openFirefoxParticipant(firefox.browser, url);
  opened.push(ann, bob, fox);
  await Promise.all([joinAs(ann.page, 'Ann', WAIT), joinAs(bob.page, 'Bob', WAIT), joinAs(fox.page, 'Fox', WAIT)]);
  for (const p of [ann, bob, fox]) await waitForParticipants(p.page, ['Ann', 'Bob', 'Fox'], WAIT);
  const three = await Promise.all([ann, bob, fox].map((p) => seesVideoOf(p.page, 2, start)));
  console.log(`three people: Ann, Bob (phone) and Fox (Firefox) each see both others' video ${three.join(' / ')} ms after the pages opened`);

  const cat = await openParticipant(chromium, url, { setup: (page) => page.addInitScript(HELD_MEDIA_SCRIPT) });
  opened.push(cat);
  await joinAs(cat.page, 'Cat', WAIT);
  for (const p of [ann, bob, fox]) await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat', 'Fox'], WAIT);
  await new Promise((r) => setTimeout(r, 4000));
  const answered = await answerMedia(cat.page);
  const late = await Promise.all([ann, bob, fox].map((p) => seesVideoOf(p.page, 3, answered)));
  console.log(`Cat's camera answered 4 s after Join: Ann, Bob and Fox see it ${late.join(' / ')} ms later`);
  await saveShot(out, ann.page, 'four', 1280, lang);
  await saveShot(out, bob.page, 'four', 390, lang);
  if (sfu) {
    const paths = await Promise.all([ann, bob, fox, cat].map((p) => p.page.evaluate(() => (window as any).foyer.mediaPath().mode)));
    console.log(`four people on ${paths.join(' / ')}`);
    // A page that reloads loses this mark.
    for (const p of [ann, bob, fox, cat]) await p.page.evaluate(() => ((window as any).notReloaded = true));
    const killedAt = Date.now();
    process.kill(server.sfu!.localPid!, 'SIGKILL');
    const back = await Promise.all([ann, bob, fox, cat].map((p) => seesVideoOf(p.page, 3, killedAt)));
    const kept = await Promise.all([ann, bob, fox, cat].map((p) => p.page.evaluate(() => (window as any).notReloaded === true)));
    console.log(`Janus killed (SIGKILL): Ann, Bob, Fox and Cat see everyone again ${back.join(' / ')} ms later; ${kept.every(Boolean) ? 'no page reloaded' : 'A PAGE RELOADED'}`);
  }

  const left = Date.now();
  await cat.context.close();
  await fox.page.click('#leave');
  for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
  const two = await Promise.all([ann, bob].map((p) => seesVideoOf(p.page, 1, left)));
  console.log(`Cat closed the tab and Fox left: Ann and Bob, two again, still see each other (video growing ${two.join(' / ')} ms after)`);
  await saveShot(out, ann.page, 'two', 1280, lang);
  await saveShot(out, bob.page, 'two', 390, lang);
} finally {
  for (const p of opened) await p.context.close().catch(() => undefined);
  await chromium.close();
  await firefox.close();
  await server.close();
  await db.dispose();
}
