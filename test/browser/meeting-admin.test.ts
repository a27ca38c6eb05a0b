/**
 * The meeting admin in real headless Chromium: a consultation's owner signs
 * in by the dashboard's labelled fields and opens the consultation; the
 * patient who came first waits on the knock screen until the owner lets
 * them in; both see live video and the host badge; the owner removes the
 * patient (who sees the "removed by the host" screen), then ends the
 * meeting for everyone, and the link answers 410. And when the owner signs
 * out, their console closes with "sign in again" while their call goes on
 * without the host's controls, as everyone sees.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { operatorActor } from '../../src/domain/actors.ts';
import { issueMemberLink, setPasswordWithLink } from '../../src/domain/member-links.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import { client } from '../support/server.ts';
import { memberConsole } from './waiting-support.ts';
import { useBrowserSuite } from './browser-suite.ts';
import { browserSkipReason, joinAs, openParticipant, waitForGrowth, waitForParticipants } from './support.ts';

const skip = browserSkipReason();
const WAIT = 20_000;
const PASSWORD = 'a long enough password 42';

describe('the meeting admin in Chromium', { skip }, () => {
  const s = useBrowserSuite({
    type: 'medical',
    members: [{ email: 'lee@clinic.test', fullName: 'Dr Lee', role: 'USER' }],
    config: { passwordHashCost: 14 },
  });

  const phase = (page: Page) => page.evaluate(() => (window as any).foyer.phase() as string);

  before(async () => {
    const link = await issueMemberLink(s.server.ctx, operatorActor(s.seeded.organization), 'lee@clinic.test', 'invite');
    await setPasswordWithLink(s.server.ctx, new URL(link.url).pathname.split('/').pop()!, PASSWORD);
  });

  it('lets the signed-in owner admit a knocking patient, remove them and end the consultation for everyone', async () => {
    const created = await client(s.server.baseUrl, s.seeded).post('/v3/meeting', { json: { type: 'CONSULTATION', ownerEmail: 'lee@clinic.test' } });
    assert.equal(created.status, 201);
    const link = `${s.server.origin}/meetings/${created.body.id}`;

    // The patient comes first: a calm knock screen, not a call alone.
    const patient = await openParticipant(s.browser, link);
    s.opened.push(patient);
    await patient.page.fill('#name', 'Pat');
    await patient.page.click('#join');
    await patient.page.waitForFunction(() => (window as any).foyer.phase() === 'knocking', undefined, { timeout: WAIT });
    assert.match((await patient.page.textContent('#knock-status')) ?? '', /Your clinician will let you in/);

    // The owner signs in by the labelled fields and opens the consultation: the pre-join screen says they are the host.
    const owner = await openParticipant(s.browser, `${s.server.origin}/dashboard/sign-in`);
    s.opened.push(owner);
    await owner.page.getByLabel('Email').fill('lee@clinic.test');
    await owner.page.getByLabel('Password').fill(PASSWORD);
    await owner.page.getByRole('button', { name: /^sign in$/i }).click();
    await owner.page.waitForURL((url) => url.pathname === '/dashboard' || url.pathname === '/dashboard/');
    await owner.page.goto(link);
    await owner.page.waitForSelector('#host-note', { timeout: WAIT });
    await joinAs(owner.page, 'Dr Lee', WAIT);
    assert.equal(await owner.page.evaluate(() => (window as any).foyer.host()), true);

    // The knock shows up live; the owner lets Pat in by the labelled button.
    await owner.page.getByRole('button', { name: 'Let Pat in' }).click({ timeout: WAIT });
    await patient.page.waitForFunction(() => (window as any).foyer.phase() === 'call', undefined, { timeout: WAIT });
    await waitForParticipants(owner.page, ['Dr Lee', 'Pat'], WAIT);
    await waitForGrowth(owner.page, 'framesDecoded', 10, WAIT);
    await waitForGrowth(patient.page, 'framesDecoded', 10, WAIT);
    assert.deepEqual(await patient.page.evaluate(() => (window as any).foyer.hosts()), ['Dr Lee'], 'the patient sees who the host is');
    assert.equal(await patient.page.locator('#people-list .host-badge').count(), 1);
    assert.equal(await patient.page.locator('[data-action="remove"]').count(), 0, 'the patient has no host controls');

    // Pat raises a hand; the owner lowers it from the participant list: down for both, and Pat is told.
    await patient.page.click('#hand');
    await owner.page.getByRole('button', { name: 'Participants' }).click();
    await owner.page.getByRole('button', { name: 'Lower the hand of Pat' }).click({ timeout: WAIT });
    await patient.page.waitForFunction(() => (window as any).foyer.announcements().includes('The host lowered your hand.'), undefined, { timeout: WAIT });
    assert.equal(await patient.page.getAttribute('#hand', 'aria-pressed'), 'false');
    await owner.page.waitForFunction(() => (window as any).foyer.hands().length === 0, undefined, { timeout: WAIT });
    await owner.page.getByRole('button', { name: 'Participants' }).click();

    // The owner turns the chat off (More → "Turn chat off"): Pat's box is off and says why; on again, it works.
    await owner.page.click('#more');
    await owner.page.getByRole('button', { name: 'Turn chat off' }).click();
    await patient.page.click('#chat');
    await patient.page.waitForSelector('#chat-input:disabled', { timeout: WAIT });
    assert.equal(await patient.page.textContent('#chat-off'), 'The host has turned the chat off.');
    await owner.page.click('#more');
    await owner.page.getByRole('button', { name: 'Turn chat on' }).click();
    await patient.page.waitForSelector('#chat-input:enabled', { timeout: WAIT });
    await patient.page.click('#chat');

    // Removing (from the participant list) asks first; Pat then sees the "removed by the host" screen, with no way back in by a button.
    await owner.page.getByRole('button', { name: 'Participants' }).click();
    await owner.page.getByRole('button', { name: 'Remove Pat from the meeting' }).click();
    await owner.page.click('#confirm-ok');
    await patient.page.waitForSelector('#finished[data-kind="removed"]', { timeout: WAIT });
    assert.match((await patient.page.textContent('#finished')) ?? '', /The host removed you from this meeting/);
    assert.equal(await patient.page.locator('#rejoin').count(), 0);
    await waitForParticipants(owner.page, ['Dr Lee'], WAIT);

    // End for everyone: cancelled once (nothing happens), then confirmed.
    await owner.page.click('#more');
    await owner.page.click('#end-all');
    await owner.page.click('#confirm-cancel');
    // Long enough for a wrongly sent end to have closed the meeting.
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await phase(owner.page), 'call');
    assert.equal((await s.db.store.live.findMeetingRecord({ id: created.body.id }))?.closedAt, null, 'cancelled: still open');
    assert.equal((await fetch(link)).status, 200);
    await owner.page.click('#more');
    await owner.page.click('#end-all');
    await owner.page.click('#confirm-ok');
    // The one who ended it is told so, and led back to the dashboard.
    await owner.page.waitForSelector('#finished[data-kind="endedBySelf"]', { timeout: WAIT });
    assert.equal(await owner.page.getAttribute('#to-dashboard', 'href'), '/dashboard/meetings');
    assert.equal((await fetch(link)).status, 410);
  });

  it('takes the host’s controls and closes the console when the owner signs out, and the call goes on', async () => {
    const lee = s.seeded.users[0]!;
    const operator = operatorActor(s.seeded.organization);
    const queue = await createSpace(s.server.ctx, operator, 'queue', { name: 'Walk-in', slug: `walk-in-${Date.now().toString(36)}` });
    await updateSpace(s.server.ctx, operator, 'queue', queue.id, { memberIds: [lee.id] });
    // The console opens in the owner's browser (signed in); the consultation in another tab of it.
    const consolePage = await memberConsole(s.browser, s.server, queue, lee, s.opened);
    const created = await client(s.server.baseUrl, s.seeded).post('/v3/meeting', { json: { type: 'CONSULTATION', ownerEmail: lee.email, waitForOwner: false } });
    const link = `${s.server.origin}/meetings/${created.body.id}`;
    const owner = await consolePage.context().newPage();
    await owner.goto(link);
    await joinAs(owner, 'Dr Lee', WAIT);
    assert.equal(await owner.evaluate(() => (window as any).foyer.host()), true);
    const patient = await openParticipant(s.browser, link);
    s.opened.push(patient);
    await joinAs(patient.page, 'Pat', WAIT);
    await waitForParticipants(owner, ['Dr Lee', 'Pat'], WAIT);
    assert.deepEqual(await patient.page.evaluate(() => (window as any).foyer.hosts()), ['Dr Lee']);

    // Signing out in a third tab.
    const dashboard = await consolePage.context().newPage();
    await dashboard.goto(`${s.server.origin}/dashboard`);
    await dashboard.click('#sign-out');
    await dashboard.waitForURL((url) => url.pathname === '/dashboard/sign-in');

    await consolePage.waitForSelector('#console-connection a', { timeout: WAIT });
    assert.match((await consolePage.textContent('#console-connection')) ?? '', /Your sign-in has ended/);
    assert.equal(await consolePage.getAttribute('#console-connection a', 'href'), `/dashboard/sign-in?next=${encodeURIComponent(`/dashboard/queues/${queue.id}/console`)}`);
    assert.equal(await consolePage.isDisabled('#take-next'), true);
    assert.equal((await consolePage.textContent('#console-error')) ?? '', '', 'said once, in the page’s language');

    await owner.waitForFunction(() => (window as any).foyer.host() === false, undefined, { timeout: WAIT });
    assert.match((await owner.textContent('#host-notice')) ?? '', /no longer as its host/);
    assert.equal(await owner.locator('#lock, #end-all').count(), 0, 'no lock or end for everyone');
    await patient.page.waitForFunction(() => (window as any).foyer.hosts().length === 0, undefined, { timeout: WAIT });
    assert.equal(await phase(owner), 'call', 'still in the call');
    assert.equal(await phase(patient.page), 'call');
    await waitForGrowth(patient.page, 'framesDecoded', 10, WAIT);
  });
});
