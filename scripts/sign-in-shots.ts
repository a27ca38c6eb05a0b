/**
 * @module scripts/sign-in-shots
 * Screenshots of the ways in, signed out, for a person to look at: the
 * sign-in page with "forgot password?" and single sign-on offered, the
 * forgot-password form and its answer, the single sign-on form (empty and
 * refusing an organization), and the refusal pages of single sign-on (a
 * real flow through a test OpenID provider for an unknown email, and a
 * callback without a flow), at 1280 and 390 px, in English and German.
 * Starts Foyer with a test SMTP server and a test OpenID provider, all on
 * loopback.
 *
 *   node --import tsx scripts/sign-in-shots.ts [--out DIR]
 */
import { mkdirSync } from 'node:fs';
import { createServer as netServer } from 'node:net';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config.ts';
import { operatorActor } from '../src/domain/actors.ts';
import { configureSso, SSO_CALLBACK_PATH } from '../src/domain/sso.ts';
import { createLogger } from '../src/logger.ts';
import { createServer } from '../src/server.ts';
import { CHROMIUM } from '../test/browser/support.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { startOidcProvider } from '../test/support/oidc.ts';
import { seedOrganization } from '../test/support/server.ts';
import { startSmtp } from '../test/support/smtp.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--out');
const out = resolve(at === -1 ? '/tmp/sign-in-shots' : (args[at + 1] ?? '/tmp/sign-in-shots'));
mkdirSync(out, { recursive: true });

/** A free port, so PUBLIC_URL can name it before the server listens (the provider sends browsers back there). */
const port = await new Promise<number>((done) => {
  const probe = netServer().listen(0, '127.0.0.1', () => {
    const address = probe.address();
    probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
  });
});
const origin = `http://127.0.0.1:${port}`;
const smtp = await startSmtp();
const provider = await startOidcProvider({
  redirectUri: `${origin}${SSO_CALLBACK_PATH}`,
  accounts: { nobody: { email: 'nobody@elsewhere.test', email_verified: true } },
});
const db = await openTestDatabase('sqlite');
const config = {
  ...loadConfig({ PUBLIC_URL: origin, API_SECRET_PEPPER: 'shots', LOG_LEVEL: 'silent', SMTP_URL: smtp.url, MAIL_FROM: 'Foyer <foyer@clinic.test>' }),
  ssoSecretKey: 'a key for sealing sso secrets in screenshots',
  passwordHashCost: 14,
};
const { app, ctx } = await createServer({ config, store: db.store, logger: createLogger(config, false) });
await app.listen({ host: '127.0.0.1', port });
const org = await seedOrganization(ctx, 'medical', [{ email: 'ann.lee@clinic.test', fullName: 'Ann Lee', role: 'ADMIN' }]);
await configureSso(ctx, operatorActor(org.organization), { issuer: provider.issuer, clientId: provider.clientId, clientSecret: provider.clientSecret });

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking'], headless: true });
try {
  for (const width of [1280, 390]) {
    for (const lang of ['en', 'de']) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.on('console', (m) => m.type() === 'error' && console.log(`# console: ${m.text()}`));
      const shot = async (name: string) => {
        const file = `${out}/${name}-${width}-${lang}.png`;
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      };
      await page.goto(`${origin}/dashboard/sign-in?lang=${lang}`);
      await shot('sign-in');
      await Promise.all([page.waitForNavigation(), page.click('#forgot-password')]);
      await shot('forgot-password');
      await page.fill('#email', 'not-an-address');
      await Promise.all([page.waitForNavigation(), page.click('#send-reset')]);
      await shot('forgot-password-invalid');
      await page.fill('#email', 'ann.lee@clinic.test');
      await Promise.all([page.waitForNavigation(), page.click('#send-reset')]);
      await shot('forgot-password-sent');
      await page.goto(`${origin}/dashboard/sign-in`);
      await Promise.all([page.waitForNavigation(), page.click('#sso')]);
      await shot('sso');
      await page.fill('#organization', 'no-such-clinic');
      await Promise.all([page.waitForNavigation(), page.click('#sso-continue')]);
      await shot('sso-unknown');
      await page.fill('#organization', org.organization.slug);
      await Promise.all([page.waitForNavigation(), page.click('#sso-continue')]);
      // The provider's development forms: sign in as an account Foyer does not know, then consent.
      await page.fill('input[name="login"]', 'nobody');
      await page.fill('input[name="password"]', 'any');
      await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
      if (!page.url().startsWith(origin)) await Promise.all([page.waitForURL(`${origin}/**`), page.click('button[type="submit"]')]);
      await shot('sso-refused-not-a-member');
      await page.goto(`${origin}${SSO_CALLBACK_PATH}?code=x&state=y`);
      await shot('sso-refused-expired');
      await context.close();
    }
  }
} finally {
  await browser.close();
  await app.close();
  await provider.close();
  await smtp.close();
  await db.dispose();
}
