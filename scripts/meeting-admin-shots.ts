/**
 * @module scripts/meeting-admin-shots
 * Screenshots of the meeting admin for a person to look at, at 1280 and
 * 390 px, in English and German: the host's pre-join screen, the patient's
 * knock screen, the host's call with a knock, the locked call as the host
 * and as a participant (host and locked badges, the mute request), a
 * raised hand the host can lower, the chat turned off by the host, the
 * end-for-everyone confirmation, the removed screen, the knock after a
 * removal, and the end by the host. Real flow in headless Chromium with
 * fake devices against Foyer on an in-memory SQLite database.
 *
 *   node --import tsx scripts/meeting-admin-shots.ts [--out DIR]
 */
import type { Browser, Page } from 'playwright-core';
import { operatorActor } from '../src/domain/actors.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { startSession } from '../src/domain/sign-in.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';
import { outFolder, pageAt, saveShot } from './shots.ts';

const args = process.argv.slice(2);
const out = outFolder(args, '/tmp/meeting-admin-shots');

const db = await openTestDatabase('sqlite');
const server = await startServer(db.store, { publicUrl: 'http://localhost:3000' });
const seeded = await seedOrganization(server.ctx, 'medical', [{ email: 'lee@clinic.test', fullName: 'Dr Ann Lee', role: 'USER' }]);
const lee = seeded.users[0]!;
const browser: Browser = await launch();

const page = (width: number, cookie?: string): Promise<Page> => pageAt(browser, server.origin, width, cookie);

const shot = (p: Page, name: string, width: number, lang: string) => saveShot(out, p, name, width, lang);

const phase = (p: Page, want: string) => p.waitForFunction((w) => (window as any).foyer?.phase() === w, want, { timeout: 30_000 });

try {
  for (const width of [1280, 390]) {
    for (const lang of ['en', 'de']) {
      const meeting = await createMeeting(server.ctx, operatorActor(seeded.organization), { type: 'CONSULTATION', ownerEmail: lee.email });
      const url = `${server.origin}/meetings/${meeting.id}?lang=${lang}`;
      const patient = await page(width);
      await patient.goto(`${url}&displayName=Pat%20Doe&skipPrejoin=true`);
      await phase(patient, 'knocking');
      await shot(patient, 'knock', width, lang);

      const host = await page(width, (await startSession(server.ctx, lee, 'password')).token);
      await host.goto(url);
      await host.waitForSelector('#host-note');
      await host.fill('#name', 'Dr Ann Lee');
      await shot(host, 'host-prejoin', width, lang);
      await host.click('#join');
      await phase(host, 'call');
      await host.waitForSelector('#knocks:not([hidden])');
      await shot(host, 'host-knock', width, lang);
      await host.click('#knocks [data-action="let-in"]');
      await phase(patient, 'call');
      // A raw link's skipPrejoin joins with camera and microphone off: the patient turns them on.
      await patient.click('#mic');
      await patient.click('#cam');
      // The participant list is a panel at every width now.
      await host.click('#people-toggle');
      await host.waitForSelector('#people-list [data-action="remove"]');
      await host.click('#more');
      await host.click('#lock');
      await patient.waitForFunction(() => (window as any).foyer.locked() === true);
      await shot(host, 'host-call-locked', width, lang);
      await host.click('#people-list [data-action="ask-mute"]');
      await patient.waitForSelector('#mute-request');
      await patient.click('#people-toggle');
      await shot(patient, 'participant-mute-request', width, lang);
      // The host lowers a raised hand, then turns the chat off.
      if (width < 600) {
        await patient.click('#react');
        await patient.click('#menu-hand');
      } else await patient.click('#hand');
      await host.waitForSelector('#people-list [data-action="lower-hand"]');
      await shot(host, 'host-lower-hand', width, lang);
      await host.click('#people-list [data-action="lower-hand"]');
      await host.waitForSelector('#people-list [data-action="lower-hand"]', { state: 'detached' });
      await host.click('#more');
      await host.click('#chat-toggle');
      await patient.click('#chat');
      await patient.waitForFunction(() => (document.getElementById('chat-input') as HTMLTextAreaElement | null)?.disabled === true);
      await shot(patient, 'participant-chat-off', width, lang);
      await patient.click('#chat');
      await host.click('#more');
      await host.click('#end-all');
      await host.waitForSelector('#confirm');
      await shot(host, 'host-end-confirm', width, lang);
      await host.click('#confirm-cancel');
      await host.click('#people-list [data-action="remove"]');
      await host.click('#confirm-ok');
      await patient.waitForSelector('#finished');
      await shot(patient, 'removed', width, lang);
      await patient.reload();
      await phase(patient, 'knocking');
      await shot(patient, 'knock-after-removal', width, lang);
      await host.click('#more');
      await host.click('#end-all');
      await host.click('#confirm-ok');
      await host.waitForSelector('#finished');
      await shot(host, 'ended-by-host', width, lang);
      await host.context().close();
      await patient.context().close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}
