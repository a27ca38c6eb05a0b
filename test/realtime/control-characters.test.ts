/**
 * Control characters in signalling fields, on a real server over SQLite
 * and PostgreSQL: refused as `bad_message` (4400) before any command runs
 * (PostgreSQL refuses a NUL, which used to surface as "Internal error"),
 * and nothing at error level, no stack, in the log.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createMeeting } from '../../src/domain/meetings.ts';
import { addUser } from '../../src/domain/organizations.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import type { User } from '../../src/domain/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { startFrontEnd, type FrontEnd } from './harness.ts';
import { TestClient } from './ws-client.ts';

for (const factory of await testDatabases()) {
  describe(`control characters in signalling fields (${factory.name})`, { skip: factory.skip }, () => {
    let db: TestDatabase;
    let fe: FrontEnd;
    let member: User;
    const logged: Array<{ level: number; [key: string]: unknown }> = [];
    const clients: TestClient[] = [];

    before(async () => {
      db = await factory.open();
      const stream = new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) logged.push(JSON.parse(line));
          done();
        },
      });
      fe = await startFrontEnd(db.store, { env: { LOG_LEVEL: 'info' }, logger: { stream } });
      member = await addUser(fe.ctx, fe.operator, { email: 'lee@clinic.test', fullName: 'Dr Lee' });
    });
    after(async () => {
      for (const c of clients) c.terminate();
      await fe?.close();
      await db?.dispose();
    });

    const socket = async (signedIn: boolean) => {
      const cookies = [`foyer_participant=${randomBytes(18).toString('base64url')}`];
      if (signedIn) cookies.push(`foyer_session=${(await startSession(fe.ctx, member, 'password')).token}`);
      const c = await TestClient.connect(fe.origin, { headers: { origin: fe.origin, cookie: cookies.join('; ') } });
      clients.push(c);
      return c;
    };
    const refused = async (c: TestClient, message: unknown) => {
      c.send(message);
      const error = await c.next((m) => m.type === 'error');
      assert.equal(error.code, 'bad_message', JSON.stringify(error));
      assert.equal(await c.closed, 4400);
    };

    it('refuses a NUL in a console’s spaceId, a join’s name and a host’s knockId as bad_message', async () => {
      await refused(await socket(true), { type: 'console', kind: 'queue', spaceId: 'abc\u0000def' });
      const meeting = await createMeeting(fe.ctx, fe.operator, {});
      await refused(await socket(false), { type: 'join', meetingId: meeting.id, name: 'Ann\u0000' });
      const host = await socket(false);
      assert.equal((await host.join({ meetingId: meeting.id }, 'Bob')).type, 'welcome');
      await refused(host, { type: 'admit', knockId: '\u0000' });
      const waiting = await socket(false);
      await refused(waiting, { type: 'wait', slug: 'x\u0007y', name: 'Cid', token: null });
    });

    it('logs nothing at error level and no stack for them', () => {
      const errors = logged.filter((l) => l.level >= 50);
      assert.deepEqual(errors, []);
      assert.ok(!JSON.stringify(logged).includes('"stack"'), 'no stack in the log');
    });
  });
}
