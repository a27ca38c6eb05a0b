/**
 * The idle rule and someone knocking: a patient knocking at a consultation
 * whose clinician is late is there, so the meeting stays open however long
 * they wait; once they give up and leave, it closes after the idle time as
 * any unattended meeting does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { addUser } from '../../src/domain/organizations.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { startFrontEnd, waitFor, type FrontEnd } from './harness.ts';
import { TestClient } from './ws-client.ts';

const IDLE_SECONDS = 1;

for (const database of await testDatabases()) {
  describe(`the idle rule while someone knocks, on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let fe: FrontEnd;
    const clients: TestClient[] = [];

    before(async () => {
      db = await database.open();
      fe = await startFrontEnd(db.store, { env: { IDLE_CLOSE_SECONDS: String(IDLE_SECONDS) } });
    });
    after(async () => {
      for (const c of clients) c.terminate();
      await fe?.close();
      await db?.dispose();
    });

    it('keeps a consultation open while its patient knocks, and closes it the idle time after they leave', async () => {
      const owner = await addUser(fe.ctx, fe.operator, { email: 'late@clinic.test', fullName: 'Dr Late' });
      const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), { type: 'CONSULTATION', ownerEmail: owner.email });
      const patient = await TestClient.connect(fe.origin, { headers: { origin: fe.origin } });
      clients.push(patient);
      patient.send({ type: 'join', meetingId: meeting.id, name: 'Pat', audio: true, video: true });
      assert.equal((await patient.next((m) => m.type === 'knocking' || m.type === 'error')).type, 'knocking');

      // Four idle times of knocking: an unattended meeting would have closed three times over.
      await new Promise((r) => setTimeout(r, 4 * IDLE_SECONDS * 1000));
      assert.equal((await db.store.live.findMeetingRecord({ id: meeting.id }))?.closedAt, null);
      assert.equal(patient.closeCode, undefined, 'still knocking');
      assert.equal((await fetch(`${fe.origin}/meetings/${meeting.id}`)).status, 200);

      patient.send({ type: 'leave' });
      await waitFor(async () => Boolean((await db.store.live.findMeetingRecord({ id: meeting.id }))?.closedAt), 10_000, 'the meeting closing after the patient left');
    });
  });
}
