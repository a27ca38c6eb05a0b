/**
 * @module scripts/dashboard-shots
 * Screenshots of dashboard pages for a person to look at: starts Foyer on
 * an in-memory SQLite database with a seeded organization (an ADMIN and a
 * USER), optionally runs a seeding module against it, signs in in headless
 * Chromium, and saves each page at 1280 and 390 px wide, in English and
 * German, signed in and (for the sign-in page) signed out.
 *
 *   node --import tsx scripts/dashboard-shots.ts [--out DIR] [--seed MODULE] [--as USER|ADMIN] PATH...
 *
 * A seed module exports `default async function (ctx, org, operator)`; PATHs are
 * dashboard paths such as /dashboard or /dashboard/meetings. A seed may
 * return ids by name ({ board: '…' }), which PATHs use as `:board`.
 * A PATH may go on with steps after `#`, run in order before the screenshot:
 * `fill:ID=TEXT`, `check:ID` and `click:ID` (which waits for the page it
 * leads to), e.g. `/dashboard/keys/new#fill:name=Billing#click:create-key`
 * for the page answering a form (its name ends in `-after-N`, N the PATH's place).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { operatorActor } from '../src/domain/actors.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { invitationPath } from '../test/support/dashboard-client.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { CHROMIUM } from '../test/browser/support.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  if (i === -1) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return value ?? fallback;
};
const out = resolve(option('--out', '/tmp/dashboard-shots'));
const seed = option('--seed', '');
const as = option('--as', 'ADMIN');
const paths = args.length ? args : ['/dashboard'];
mkdirSync(out, { recursive: true });

const db = await openTestDatabase('sqlite');
const server = await startServer(db.store, { passwordHashCost: 14, publicUrl: 'http://localhost:3000' });
const org = await seedOrganization(server.ctx, 'medical', [
  { email: 'ann.lee@clinic.test', fullName: 'Ann Lee', role: 'ADMIN' },
  { email: 'bob.stone@clinic.test', fullName: 'Bob Stone', role: 'USER' },
]);
const named: Record<string, string> = seed
  ? ((await (await import(pathToFileURL(resolve(seed)).href)).default(server.ctx, org.organization, operatorActor(org.organization))) ?? {})
  : {};
const pathOf = (path: string) => path.replace(/:(\w+)/g, (whole, name: string) => named[name] ?? whole);
const email = as === 'USER' ? 'bob.stone@clinic.test' : 'ann.lee@clinic.test';
const password = 'a long enough passphrase';

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking'], headless: true });
try {
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && console.log(`# console: ${m.text()}`));
    await page.goto(`${server.origin}/dashboard/sign-in?lang=en`);
    await page.screenshot({ path: `${out}/sign-in-${width}-en.png`, fullPage: true });
    const link = await invitationPath(server.ctx, org.organization, email);
    await page.goto(server.origin + link);
    await page.fill('#password', password);
    await page.fill('#confirm', password);
    await page.click('#set-password');
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('#sign-in');
    await page.waitForURL(/\/dashboard$/);
    for (const lang of ['en', 'de']) {
      for (const [n, entry] of paths.entries()) {
        const [path = '', ...steps] = entry.split('#');
        await page.goto(`${server.origin}${pathOf(path)}${path.includes('?') ? '&' : '?'}lang=${lang}`);
        for (const step of steps) {
          const [, action, id, value] = /^(fill|check|click):([\w-]+)(?:=(.*))?$/.exec(step) ?? [];
          if (action === 'fill') await page.fill(`#${id}`, value ?? '');
          else if (action === 'check') await page.check(`#${id}`);
          else if (action === 'click') await Promise.all([page.waitForNavigation(), page.click(`#${id}`)]);
          else throw new Error(`unknown step "${step}"`);
        }
        await page.waitForLoadState('networkidle');
        const name = (path.replace(/^\/dashboard\/?/, '').replace(/[^a-z0-9]+/gi, '-') || 'overview') + (steps.length ? `-after-${n}` : '');
        const file = `${out}/${name}-${width}-${lang}.png`;
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}
