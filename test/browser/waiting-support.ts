/**
 * @module test/browser/waiting-support
 * Waiting lists in Chromium: a server with a board or queue and its
 * members, clients who get in line through the waiting page, and members
 * signed in (a dashboard session cookie in their browser context) on the
 * console page. Each person is a browser context of their own with the
 * fake devices of ./support.ts.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { operatorActor } from '../../src/domain/actors.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Space, User } from '../../src/domain/types.ts';
import type { SeededOrganization, TestServer } from '../support/server.ts';
import { openParticipant, waitUntil, type Participant } from './support.ts';

export const WAIT = 45_000;
let sequence = 0;

export async function newSpace(server: TestServer, seeded: SeededOrganization, kind: 'board' | 'queue', members: User[]): Promise<Space> {
  const operator = operatorActor(seeded.organization);
  sequence += 1;
  const space = await createSpace(server.ctx, operator, kind, { name: `${kind === 'board' ? 'Surgery' : 'Helpdesk'} ${sequence}`, slug: `${kind}-${sequence}-${Date.now().toString(36)}`, hasWaitingList: kind === 'board' ? true : undefined });
  return updateSpace(server.ctx, operator, kind, space.id, { memberIds: members.map((m) => m.id) });
}

/** A client on the waiting page who entered `name` and is in line (`inLine: false`: who only got in, for one taken at once). */
export async function clientWaits(browser: Browser, server: TestServer, space: Space, name: string, opened: Participant[], { inLine = true } = {}): Promise<Page> {
  const p = await openParticipant(browser, `${server.origin}/${space.slug}`);
  opened.push(p);
  await p.page.fill('#name', name);
  await p.page.click('#join');
  if (!inLine) return p.page;
  await p.page.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });
  return p.page;
}

/** A member signed in, on the console of `space`. */
export async function memberConsole(
  browser: Browser,
  server: TestServer,
  space: Space,
  member: User,
  opened: Participant[],
  setup?: (page: Page) => Promise<unknown>,
): Promise<Page> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const { token } = await startSession(server.ctx, member, 'password');
  await context.addCookies([{ name: 'foyer_session', value: token, url: server.origin }]);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`# console page error: ${error.message}`));
  opened.push({ context, page });
  await setup?.(page);
  await page.goto(`${server.origin}/dashboard/${space.kind === 'board' ? 'boards' : 'queues'}/${space.id}/console`);
  await page.waitForFunction(() => (window as any).foyer?.view() != null, undefined, { timeout: WAIT });
  return page;
}

export interface ConsoleView {
  me: { isActive: boolean; isAutoAccepting: boolean; current: { clientName: string; state: string } | null };
  waiting: Array<{ id: string; name: string; position: number }>;
  serving: Array<{ name: string; state: string; servedByName: string | null }>;
}

export async function consoleView(page: Page): Promise<ConsoleView> {
  return page.evaluate(() => (window as any).foyer.view());
}

/** Waits until the console lists exactly `names` as waiting, in this order. */
export async function consoleShowsWaiting(page: Page, names: string[]): Promise<void> {
  await waitUntil(`the console listing ${names.join(', ')}`, async () => {
    const view = await consoleView(page);
    return JSON.stringify(view?.waiting.map((w) => w.name)) === JSON.stringify(names) || undefined;
  }, { timeout: WAIT });
  const shown = await page.$$eval('#waiting-list li .name', (nodes) => nodes.map((n) => n.textContent));
  assert.deepEqual(shown, names.map((n, i) => `${i + 1}. ${n}`));
}

export async function clientState(page: Page): Promise<{ state: string; position: number | null } | null> {
  return page.evaluate(() => (window as any).foyer.view());
}

/** Waits until the page is in its call (the meeting page's call screen). */
export async function inCall(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: WAIT });
}
