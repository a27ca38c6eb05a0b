/**
 * @module scripts/call-shots
 * Screenshots of the call for a person to look at, at 1280 and 390 px, in
 * English and German: the pre-join screen (and with the camera blocked),
 * a 1:1 call, a call of four in the grid and in the speaker view, the chat
 * and the participants open, the settings, a camera turned off (initials),
 * a raised hand; the knock screen; a client's waiting screen and their
 * call with the member; the member's console call; the end screens (the
 * client served, the host who ended a meeting, a guest it was ended for). Real
 * flow in headless Chromium with fake devices against Foyer on an
 * in-memory SQLite database.
 *
 *   node --import tsx scripts/call-shots.ts [--out DIR] [--only NAME,NAME]
 *
 * Reactions are emoji: without a colour emoji font (Debian:
 * fonts-noto-color-emoji) headless Chromium draws them as empty boxes.
 */
import type { Browser, Page } from 'playwright-core';
import { operatorActor } from '../src/domain/actors.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { startSession } from '../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../src/domain/spaces.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';
import { outFolder, pageAt, saveShot } from './shots.ts';

const args = process.argv.slice(2);
const out = outFolder(args, '/tmp/call-shots');
const only = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1]!.split(',')) : null;
const wanted = (name: string) => !only || only.has(name);

const db = await openTestDatabase('sqlite');
const server = await startServer(db.store, { publicUrl: 'http://localhost:3000' });
const seeded = await seedOrganization(server.ctx, 'medical', [{ email: 'lee@clinic.test', fullName: 'Dr Ann Lee', role: 'USER' }]);
const lee = seeded.users[0]!;
const browser: Browser = await launch();
const org = operatorActor(seeded.organization);

const page = (width: number, cookie?: string): Promise<Page> => pageAt(browser, server.origin, width, cookie);
const shot = (p: Page, name: string, width: number, lang: string) => saveShot(out, p, name, width, lang);
const phase = (p: Page, want: string) => p.waitForFunction((w) => (window as any).foyer?.phase() === w, want, { timeout: 30_000 });
const frames = (p: Page, n: number) =>
  p.waitForFunction((k) => Object.values((window as any).foyer.framesDecoded ? {} : {}).length >= 0 && document.querySelectorAll('.tile:not(.self) video').length >= k, n, { timeout: 30_000 });

async function joined(url: string, name: string, width: number, extra = ''): Promise<Page> {
  const p = await page(width);
  await p.goto(`${url}&displayName=${encodeURIComponent(name)}&skipPrejoin=true${extra}`);
  await phase(p, 'call');
  return p;
}

const blockCamera = `{
  const md = navigator.mediaDevices;
  const original = md.getUserMedia.bind(md);
  md.getUserMedia = (c) => (c && c.video ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : original(c));
}`;

try {
  for (const width of [1280, 390]) {
    for (const lang of ['en', 'de']) {
      const opened: Page[] = [];
      const meeting = await createMeeting(server.ctx, org, { type: 'MEETING', ownerEmail: lee.email, title: 'Weekly case review' } as any);
      const url = `${server.origin}/meetings/${meeting.id}?lang=${lang}`;

      if (wanted('prejoin')) {
        const p = await page(width);
        opened.push(p);
        await p.goto(url);
        await p.waitForSelector('#readiness [data-check="network"]:not([data-status="checking"])');
        await p.waitForFunction(() => (document.querySelector('#camera') as HTMLSelectElement)?.options.length > 0);
        await shot(p, 'prejoin', width, lang);
        const blocked = await page(width);
        opened.push(blocked);
        await blocked.addInitScript(blockCamera);
        await blocked.goto(url);
        await blocked.waitForSelector('#device-help');
        await shot(blocked, 'prejoin-blocked', width, lang);
      }

      if (wanted('call')) {
        const ann = await joined(url, 'Ann Lee', width);
        const bob = await joined(url, 'Bob Marchetti-Villanueva', width);
        opened.push(ann, bob);
        await frames(ann, 1);
        await ann.waitForTimeout(1500);
        await shot(ann, 'call-pair', width, lang);
        const cat = await joined(url, 'Cat', width, '&video=off');
        const dan = await joined(url, 'Dan Østergaard', width);
        opened.push(cat, dan);
        await ann.waitForFunction(() => (window as any).foyer.participants().length === 4);
        await ann.waitForTimeout(2000);
        await shot(ann, 'call-grid', width, lang);
        if (await ann.locator('#hand').count()) {
          await cat.click(width < 600 ? '#react' : '#hand');
          if (width < 600) await cat.click('#menu-hand');
          await ann.waitForSelector('.tile.hand');
          await dan.click('#react');
          await dan.click('#reaction-menu [data-reaction="👏"]');
          await ann.waitForSelector('.tile .reaction span');
          await shot(ann, 'call-hand', width, lang);
          await ann.click('#react');
          await ann.waitForTimeout(300);
          await shot(ann, 'call-reactions', width, lang);
          await ann.keyboard.press('Escape');
        }
        await ann.click('#more');
        await ann.click('#view-toggle');
        await ann.waitForTimeout(1000);
        await shot(ann, 'call-speaker', width, lang);
        await ann.click('#people-toggle');
        await shot(ann, 'call-people', width, lang);
        if (await ann.locator('#chat').count()) {
          await bob.click('#chat');
          await bob.fill('#chat-input', 'Here are the notes: https://example.org/notes — see you at 3.');
          await bob.click('#chat-send');
          await ann.click('#panel-close');
          await ann.waitForSelector('#chat-unread:not([hidden])');
          await shot(ann, 'call-unread', width, lang);
          await ann.click('#chat');
          await ann.waitForSelector('#chat-log li');
          await shot(ann, 'call-chat', width, lang);
        }
        await ann.click(width < 600 ? '#more' : '#settings');
        if (width < 600) await ann.click('#menu-settings');
        await ann.waitForSelector('#settings-dialog');
        await ann.waitForTimeout(500);
        await shot(ann, 'call-settings', width, lang);
        await ann.keyboard.press('Escape');
      }

      if (wanted('knock')) {
        const consult = await createMeeting(server.ctx, org, { type: 'CONSULTATION', ownerEmail: lee.email, title: 'Follow-up' } as any);
        const patient = await page(width);
        opened.push(patient);
        await patient.goto(`${server.origin}/meetings/${consult.id}?lang=${lang}&displayName=Pat%20Doe&skipPrejoin=true`);
        await phase(patient, 'knocking');
        await shot(patient, 'knock', width, lang);
        const host = await page(width, (await startSession(server.ctx, lee, 'password')).token);
        opened.push(host);
        await host.goto(`${server.origin}/meetings/${consult.id}?lang=${lang}`);
        await host.waitForSelector('#host-note');
        await shot(host, 'host-prejoin', width, lang);
      }

      if (wanted('waiting')) {
        const created = await createSpace(server.ctx, org, 'queue', { name: 'Dermatology walk-in', slug: `derm-${width}-${lang}` });
        const space = await updateSpace(server.ctx, org, 'queue', created.id, { memberIds: [lee.id] });
        const client = await page(width);
        opened.push(client);
        await client.goto(`${server.origin}/${space.slug}?lang=${lang}&displayName=Pat%20Doe&skipPrejoin=true`);
        await client.waitForSelector('#waiting');
        await client.waitForTimeout(1500);
        await shot(client, 'waiting', width, lang);
        const member = await page(width, (await startSession(server.ctx, lee, 'password')).token);
        opened.push(member);
        await member.goto(`${server.origin}/dashboard/queues/${space.id}/console?lang=${lang}`);
        await member.waitForSelector('#waiting-list li');
        await shot(member, 'console', width, lang);
        await member.click('#take-next');
        await phase(member, 'call');
        await phase(client, 'call');
        await member.waitForTimeout(2000);
        await shot(member, 'console-call', width, lang);
        await shot(client, 'waiting-call', width, lang);
        await client.click('#leave');
        await client.waitForSelector('#finished');
        await shot(client, 'waiting-served', width, lang);
      }
      if (wanted('ended')) {
        const ending = await createMeeting(server.ctx, org, { type: 'CONSULTATION', ownerEmail: lee.email, title: 'Knee, follow-up', waitForOwner: false });
        const host = await page(width, (await startSession(server.ctx, lee, 'password')).token);
        opened.push(host);
        await host.goto(`${server.origin}/meetings/${ending.id}?lang=${lang}&skipPrejoin=true`);
        await phase(host, 'call');
        const guest = await joined(`${server.origin}/meetings/${ending.id}?lang=${lang}`, 'Pat Doe', width);
        opened.push(guest);
        await host.evaluate(() => (document.querySelector('#end-all') as HTMLButtonElement).click());
        await host.click('#confirm-ok');
        await host.waitForSelector('#finished');
        await guest.waitForSelector('#finished');
        await shot(host, 'ended-by-self', width, lang);
        await shot(guest, 'ended-by-host', width, lang);

        const created = await createSpace(server.ctx, org, 'board', { name: 'Orthopaedics', slug: `ortho-${width}-${lang}`, hasWaitingList: true });
        const board = await updateSpace(server.ctx, org, 'board', created.id, { memberIds: [lee.id] });
        const client = await page(width);
        opened.push(client);
        await client.goto(`${server.origin}/${board.slug}?lang=${lang}`);
        await client.fill('#name', 'Pat Doe');
        await client.click('#join');
        await client.waitForSelector('#waiting');
        await client.waitForSelector('#nobody:not([hidden])');
        await client.waitForTimeout(800);
        await shot(client, 'waiting-nobody-board', width, lang);
        const member = await page(width, (await startSession(server.ctx, lee, 'password')).token);
        opened.push(member);
        await member.goto(`${server.origin}/dashboard/boards/${board.id}/console?lang=${lang}`);
        await member.waitForSelector('#waiting-list li .readiness .badge');
        await client.waitForSelector('#nobody', { state: 'hidden' });
        await shot(client, 'waiting-board', width, lang);
        await shot(member, 'console-readiness', width, lang);
        await member.click('#waiting-list li:nth-child(1) button.accept');
        await phase(client, 'call');
        await phase(member, 'call');
        await member.click('#app #leave');
        await client.waitForSelector('#finished[data-kind="served"]');
        await shot(client, 'served-by-member', width, lang);
      }
      for (const p of opened) await p.context().close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}
