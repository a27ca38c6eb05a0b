/**
 * A board with a waiting list in real headless Chromium: two clients wait
 * on the waiting page, a doctor accepts the second from the console, both
 * see each other's live video, the other client keeps the right place, the
 * other doctor's console shows who took whom, the API shows the doctor's
 * joinedCallAt during the call and null after, a client who reloads
 * mid-call is back in it, and hanging up gives the client the closing
 * screen. Also: "nobody is available" with the closing message, a reload
 * keeping the place, a decline with its message, deactivation and a
 * dropped waiting list taking effect on the open page, and a doctor who
 * vanishes mid-call handing the client back to the front of the line.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { client, type Client } from '../support/server.ts';
import { useBrowserSuite } from './browser-suite.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { updateSpace } from '../../src/domain/spaces.ts';
import { browserSkipReason, openParticipant, waitForGrowth, waitUntil } from './support.ts';
import { clientState, clientWaits, consoleShowsWaiting, consoleView, inCall, memberConsole, newSpace, WAIT } from './waiting-support.ts';

const skip = browserSkipReason();

describe('a board with a waiting list in Chromium', { skip }, () => {
  const s = useBrowserSuite({
    type: 'medical',
    members: [
      { email: 'ann@clinic.test', fullName: 'Dr Ann', role: 'ADMIN' },
      { email: 'bo@clinic.test', fullName: 'Dr Bo', role: 'USER' },
    ],
  });
  let api: Client;

  before(() => {
    api = client(s.server.baseUrl, s.seeded);
  });

  it('lets a doctor accept the second of two waiting clients into a call with live video both ways, and ends it with a closing screen', async () => {
    const [ann, bo] = s.seeded.users as [typeof s.seeded.users[0], typeof s.seeded.users[0]];
    const board = await newSpace(s.server, s.seeded, 'board', [ann, bo]);
    const cleo = await clientWaits(s.browser, s.server, board, 'Cleo', s.opened);
    const dan = await clientWaits(s.browser, s.server, board, 'Dan', s.opened);
    assert.equal((await clientState(cleo))?.position, 1);
    assert.equal((await clientState(dan))?.position, 2);

    const annConsole = await memberConsole(s.browser, s.server, board, ann, s.opened);
    const boConsole = await memberConsole(s.browser, s.server, board, bo, s.opened);
    await consoleShowsWaiting(annConsole, ['Cleo', 'Dan']);
    await consoleShowsWaiting(boConsole, ['Cleo', 'Dan']);
    // Members are there and active: the clients are told someone is available.
    await cleo.waitForFunction(() => (window as any).foyer.view()?.available === true, undefined, { timeout: WAIT });
    assert.equal(await cleo.isHidden('#nobody'), true);

    await annConsole.click('#waiting-list li:nth-child(2) button.accept');
    await inCall(dan);
    await inCall(annConsole);
    await waitForGrowth(dan, 'framesDecoded', 10, WAIT);
    await waitForGrowth(annConsole, 'framesDecoded', 10, WAIT);

    // Cleo is still first, and still waiting; Dr Bo sees that Dr Ann took Dan.
    await consoleShowsWaiting(boConsole, ['Cleo']);
    const cleoNow = await clientState(cleo);
    assert.equal(cleoNow?.state, 'waiting');
    assert.equal(cleoNow?.position, 1);
    await boConsole.waitForFunction(() => /Dr Ann/.test(document.querySelector('#serving-list')?.textContent ?? ''), undefined, { timeout: WAIT });
    assert.match((await boConsole.textContent('#serving-list')) ?? '', /Dan.*(taken by|in a call with) Dr Ann/);

    const during = await waitUntil('joinedCallAt set', async () => {
      const found = await api.get(`/v3/rooms/board/${board.id}`);
      return found.body.members.find((m: { userId: string }) => m.userId === ann.id)?.joinedCallAt ?? undefined;
    }, { timeout: WAIT });
    assert.ok(!Number.isNaN(Date.parse(during)));
    assert.equal((await api.get(`/v3/rooms/board/${board.id}`)).body.members.find((m: { userId: string }) => m.userId === bo.id).joinedCallAt, null);

    // Dan reloads mid-call: back in the same call, with video again, nothing asked.
    await dan.reload();
    await inCall(dan);
    assert.equal(await dan.isVisible('#name'), false);
    await waitForGrowth(dan, 'framesDecoded', 5, WAIT);
    assert.equal((await consoleView(annConsole)).me.current?.clientName, 'Dan');

    await annConsole.click('#app #leave');
    await dan.waitForSelector('#finished[data-kind="served"]', { timeout: WAIT });
    await waitUntil('joinedCallAt cleared', async () => {
      const found = await api.get(`/v3/rooms/board/${board.id}`);
      return found.body.members.find((m: { userId: string }) => m.userId === ann.id)?.joinedCallAt === null || undefined;
    }, { timeout: WAIT });
    await annConsole.waitForSelector('#app', { state: 'hidden', timeout: WAIT });
    const after = await consoleView(annConsole);
    assert.equal(after.me.current, null);
    assert.deepEqual(after.waiting.map((w) => w.name), ['Cleo']);
  });

  it('tells a client when nobody is available, keeps their place across a reload, and shows a declined client the message, and a deactivated board its closing message', async () => {
    const [ann] = s.seeded.users as [typeof s.seeded.users[0]];
    const board = await updateSpace(s.server.ctx, operatorActor(s.seeded.organization), 'board', (await newSpace(s.server, s.seeded, 'board', [ann])).id, {
      closingMessage: 'Open again at 2 pm.',
    });
    // displayName, skipPrejoin and lang as on meeting pages: straight into the line, in German.
    const p = await openParticipant(s.browser, `${s.server.origin}/${board.slug}?displayName=Eve&skipPrejoin=true&lang=de`);
    s.opened.push(p);
    const eve = p.page;
    await eve.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });
    await eve.waitForSelector('#nobody', { state: 'visible', timeout: WAIT });
    assert.match((await eve.textContent('#nobody')) ?? '', /Gerade ist niemand erreichbar.*Open again at 2 pm\./s);
    const fred = await clientWaits(s.browser, s.server, board, 'Fred', s.opened);
    assert.equal((await clientState(fred))?.position, 2);

    await fred.reload();
    await fred.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });
    assert.equal(await fred.isVisible('#name'), false, 'no name asked again');
    assert.equal((await clientState(fred))?.position, 2);

    const annConsole = await memberConsole(s.browser, s.server, board, ann, s.opened);
    await consoleShowsWaiting(annConsole, ['Eve', 'Fred']);
    await eve.waitForSelector('#nobody', { state: 'hidden', timeout: WAIT });
    await annConsole.click('#waiting-list li:nth-child(1) summary');
    await annConsole.fill('#waiting-list li:nth-child(1) input[name="message"]', 'Please call the front desk.');
    await annConsole.click('#waiting-list li:nth-child(1) .decline-form button');
    await eve.waitForSelector('#finished[data-kind="declined"]', { timeout: WAIT });
    assert.equal(await eve.textContent('#declined-message'), 'Please call the front desk.');
    await consoleShowsWaiting(annConsole, ['Fred']);
    await fred.waitForFunction(() => (window as any).foyer.view()?.position === 1, undefined, { timeout: WAIT });

    // Deactivated while Fred waits: he is told at once, with the closing message, and nobody is let in.
    assert.equal((await api.post(`/v3/rooms/board/${board.id}`, { json: { isActive: false } })).status, 200);
    await fred.waitForSelector('#finished[data-kind="closed"]', { timeout: WAIT });
    assert.equal(await fred.textContent('#closing-message'), 'Open again at 2 pm.');
    await annConsole.waitForSelector('#console-inactive', { state: 'visible', timeout: WAIT });
    await consoleShowsWaiting(annConsole, []);
  });

  it('sends waiting clients into the board’s meeting when it drops its waiting list', async () => {
    const [ann] = s.seeded.users as [typeof s.seeded.users[0]];
    const board = await newSpace(s.server, s.seeded, 'board', [ann]);
    const p = await openParticipant(s.browser, `${s.server.origin}/${board.slug}?displayName=Hal&skipPrejoin=true`);
    s.opened.push(p);
    await p.page.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });
    assert.equal((await api.post(`/v3/rooms/board/${board.id}`, { json: { hasWaitingList: false } })).status, 200);
    // The same link is now the board's meeting page, joined at once as the link's parameters say.
    await p.page.waitForFunction(() => (window as any).foyer?.view === undefined && (window as any).foyer?.phase() === 'call', undefined, { timeout: WAIT });
    assert.deepEqual(await p.page.evaluate(() => (window as any).foyer.participants()), ['Hal']);
  });
});

describe('a doctor who vanishes mid-call, in Chromium', { skip }, () => {
  const s = useBrowserSuite({
    type: 'medical',
    members: [{ email: 'ann@clinic.test', fullName: 'Dr Ann', role: 'ADMIN' }],
    // The shortest grace period the configuration takes, so the doctor's absence counts quickly.
    config: { waitingGraceSeconds: 5 },
  });

  it('puts the client back at the front of the line, with their camera, instead of stranding them', async () => {
    const [ann] = s.seeded.users as [typeof s.seeded.users[0]];
    const board = await newSpace(s.server, s.seeded, 'board', [ann]);
    const gil = await clientWaits(s.browser, s.server, board, 'Gil', s.opened);
    const annConsole = await memberConsole(s.browser, s.server, board, ann, s.opened);
    await consoleShowsWaiting(annConsole, ['Gil']);
    await annConsole.click('#waiting-list li:nth-child(1) button.accept');
    await inCall(gil);
    await inCall(annConsole);

    await annConsole.context().close();
    await gil.waitForFunction(() => (window as any).foyer.view()?.state === 'waiting' && document.querySelector('#waiting') !== null, undefined, { timeout: WAIT });
    assert.equal((await clientState(gil))?.position, 1);
    await gil.waitForSelector('#nobody', { state: 'visible', timeout: WAIT });
    // The camera was started again for the preview.
    await gil.waitForFunction(() => ((document.querySelector('#tile-self video') as HTMLVideoElement | null)?.srcObject as MediaStream | null)?.getVideoTracks()[0]?.readyState === 'live', undefined, { timeout: WAIT });
  });
});

