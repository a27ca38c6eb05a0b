/**
 * Meetings through real HTTP, v1/v2/v3, on SQLite and PostgreSQL: every
 * meeting-creation rule of the spec, the exact field set of each version
 * and type, reads across versions, deletion and tenancy.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.ts';
import { PUBLIC_URL, UUID_V4, assertCreated, assertOk, assertProblem, keysOf, useApi } from './harness.ts';

const SHORT_URL = new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/m/[A-Za-z0-9]{10}$`);

for (const storage of await testDatabases()) {
  describe(`meetings on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);
    const ann = () => env.medical.users[0]!;

    describe('v1 (form, snake_case)', () => {
      it('creates a meeting from a form body and answers exactly {id, redirect_url}', async () => {
        const res = await env.med.post('/meeting', { form: { owner_email: ann().email } });
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['id', 'redirect_url']);
        assert.match(res.body.id, UUID_V4);
        assert.equal(res.body.redirect_url, `${PUBLIC_URL}/meetings/${res.body.id}`);
        assert.equal(res.headers.get('location'), `/api/meeting/${res.body.id}`);
      });

      it('reads a meeting back with GET /meeting/:id', async () => {
        const created = await env.med.post('/meeting', { form: { owner_email: ann().email } });
        const read = await env.med.get(`/meeting/${created.body.id}`);
        assertOk(read);
        assert.deepEqual(read.body, created.body);
      });

      it('requires owner_email for a medical organization, naming the field in snake_case', async () => {
        const res = await env.med.post('/meeting', { form: {} });
        assertProblem(res, 400, 'validation-failed', ['owner_email']);
        assert.match(res.body.errors[0].message, /owner_email/);
      });

      it('lets a basic organization create a meeting with no body at all', async () => {
        const res = await env.bas.post('/meeting');
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['id', 'redirect_url']);
      });

      it('treats an empty owner_email as absent', async () => {
        assertCreated(await env.bas.post('/meeting', { form: { owner_email: '' } }));
        assertProblem(await env.med.post('/meeting', { form: { owner_email: '' } }), 400, 'validation-failed', ['owner_email']);
      });

      it('refuses an owner_email that is not a member of the organization', async () => {
        const res = await env.med.post('/meeting', { form: { owner_email: env.stranger.users[0]!.email } });
        assertProblem(res, 400, 'validation-failed', ['owner_email']);
      });

      it('matches owner_email case-insensitively', async () => {
        assertCreated(await env.med.post('/meeting', { form: { owner_email: 'ann.lee@CLINIC.TEST' } }));
      });
    });

    describe('v2 (JSON, camelCase)', () => {
      it('creates a meeting and answers exactly {id, redirectUrl}', async () => {
        const res = await env.med.post('/v2/meeting', { json: { ownerEmail: ann().email } });
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['id', 'redirectUrl']);
        assert.match(res.body.id, UUID_V4);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/meetings/${res.body.id}`);
        assert.equal(res.headers.get('location'), `/api/v2/meeting/${res.body.id}`);
        const read = await env.med.get(`/v2/meeting/${res.body.id}`);
        assertOk(read);
        assert.deepEqual(read.body, res.body);
      });

      it('requires ownerEmail for a medical organization', async () => {
        assertProblem(await env.med.post('/v2/meeting', { json: {} }), 400, 'validation-failed', ['ownerEmail']);
      });

      it('lets a basic organization omit ownerEmail, with an empty JSON object or no body', async () => {
        assertCreated(await env.bas.post('/v2/meeting', { json: {} }));
        assertCreated(await env.bas.post('/v2/meeting'));
      });

      it('refuses a non-member ownerEmail, also for a basic organization', async () => {
        assertProblem(await env.bas.post('/v2/meeting', { json: { ownerEmail: ann().email } }), 400, 'validation-failed', ['ownerEmail']);
        assertProblem(await env.med.post('/v2/meeting', { json: { ownerEmail: 'nobody@clinic.test' } }), 400, 'validation-failed', ['ownerEmail']);
      });

      it('matches ownerEmail case-insensitively', async () => {
        assertCreated(await env.med.post('/v2/meeting', { json: { ownerEmail: 'BOB@Clinic.Test' } }));
      });
    });

    describe('v3 creation rules', () => {
      it('creates a MEETING by default: exactly {id, redirectUrl, isInfinite} with isInfinite false', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email } });
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['id', 'isInfinite', 'redirectUrl']);
        assert.equal(res.body.isInfinite, false);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/meetings/${res.body.id}`);
        const stored = await env.db.store.findMeeting(env.medical.organization.id, res.body.id);
        assert.equal(stored?.type, 'MEETING');
        assert.equal(stored?.ownerUserId, ann().id);
      });

      it('creates an infinite MEETING and reads it back as infinite', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'MEETING', isInfinite: true } });
        assertCreated(res);
        assert.equal(res.body.isInfinite, true);
        const read = await env.med.get(`/v3/meeting/${res.body.id}`);
        assertOk(read);
        // Reading adds whether it is still open (a Foyer extension).
        assert.deepEqual(read.body, { ...res.body, state: 'open', closedAt: null });
      });

      it('creates a CONSULTATION, case-insensitively, with exactly {id, redirectUrl} (no isInfinite key)', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'consultation' } });
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['id', 'redirectUrl']);
        const read = await env.med.get(`/v3/meeting/${res.body.id}`);
        assert.deepEqual(keysOf(read.body), ['closedAt', 'id', 'redirectUrl', 'state']);
        const stored = await env.db.store.findMeeting(env.medical.organization.id, res.body.id);
        assert.equal(stored?.type, 'CONSULTATION');
      });

      it('accepts the meeting type in any letter case', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'MeEtInG' } });
        assertCreated(res);
        assert.equal(res.body.isInfinite, false);
      });

      it('refuses an unknown meeting type', async () => {
        assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'WEBINAR' } }), 400, 'validation-failed', ['type']);
      });

      it('refuses a type that only Unicode case folding would turn into a valid one', async () => {
        for (const type of ['meet\u0131ng', 'con\u017Fultation', ' MEETING']) {
          assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type } }), 400, 'validation-failed', ['type']);
        }
      });

      it('refuses isInfinite true with CONSULTATION', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION', isInfinite: true } });
        assertProblem(res, 400, 'validation-failed', ['isInfinite']);
      });

      it('accepts isInfinite false with CONSULTATION (only a long-lasting consultation is refused)', async () => {
        assertCreated(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION', isInfinite: false } }));
      });

      it('refuses isInfinite that is not a JSON boolean (no coercion)', async () => {
        assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, isInfinite: 'true' } }), 400, 'validation-failed', ['isInfinite']);
      });

      it('requires ownerEmail for a medical organization and not for a basic one', async () => {
        assertProblem(await env.med.post('/v3/meeting', { json: { type: 'MEETING' } }), 400, 'validation-failed', ['ownerEmail']);
        assertCreated(await env.bas.post('/v3/meeting', { json: { type: 'CONSULTATION' } }));
        assertCreated(await env.bas.post('/v3/meeting'));
      });

      it("refuses another organization's member as ownerEmail", async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: env.stranger.users[0]!.email } });
        assertProblem(res, 400, 'validation-failed', ['ownerEmail']);
      });

      it('matches ownerEmail case-insensitively', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: '  ANN.LEE@clinic.test ' } });
        assertCreated(res);
        const stored = await env.db.store.findMeeting(env.medical.organization.id, res.body.id);
        assert.equal(stored?.ownerUserId, ann().id);
      });

      it('makes a consultation with an owner wait for its owner unless waitForOwner is false (an extension), and answers without the field', async () => {
        const lockOf = async (id: string) => (await env.db.store.findMeeting(env.medical.organization.id, id))?.lock;
        const waiting = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION' } });
        assertCreated(waiting);
        assert.deepEqual(keysOf(waiting.body), ['id', 'redirectUrl']);
        assert.equal(await lockOf(waiting.body.id), 'until_owner');
        const open = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION', waitForOwner: false } });
        assert.equal(await lockOf(open.body.id), 'open');
        const meeting = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email } });
        assert.equal(await lockOf(meeting.body.id), 'open', 'a MEETING does not wait by default');
        const asked = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, waitForOwner: true } });
        assert.equal(await lockOf(asked.body.id), 'until_owner');
        assertProblem(await env.bas.post('/v3/meeting', { json: { type: 'CONSULTATION', waitForOwner: true } }), 400, 'validation-failed', ['waitForOwner']);
        assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, waitForOwner: 'yes' } }), 400, 'validation-failed');
      });

      it('takes an optional title (an extension), trimmed, shown in the v3 answer and read, on the call page, and never in v1 or v2', async () => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, title: '  Follow-up,   knee  ' } });
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['id', 'isInfinite', 'redirectUrl', 'title']);
        assert.equal(res.body.title, 'Follow-up, knee');
        const read = await env.med.get(`/v3/meeting/${res.body.id}`);
        assertOk(read);
        assert.equal(read.body.title, 'Follow-up, knee');
        assert.equal((await env.db.store.findMeeting(env.medical.organization.id, res.body.id))?.title, 'Follow-up, knee');
        for (const path of [`/v2/meeting/${res.body.id}`, `/meeting/${res.body.id}`]) {
          const old = await env.med.get(path);
          assertOk(old);
          assert.equal('title' in old.body, false, `${path} answers as the spec says`);
        }
        const exactly100 = 'é'.repeat(100);
        const long = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION', title: exactly100 } });
        assertCreated(long);
        assert.equal(long.body.title, exactly100);
        const none = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, title: '   ' } });
        assertCreated(none);
        assert.equal('title' in none.body, false, 'an empty title is none');
      });

      it('refuses a title over 100 characters, with control characters or not a string, and creates nothing', async () => {
        const count = async () => (await env.db.store.listMeetings(env.medical.organization.id, { limit: 1000 })).length;
        const before = await count();
        for (const title of ['x'.repeat(101), 'a\u0007b', 42, ['a']]) {
          const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, title } });
          assertProblem(res, 400, 'validation-failed', ['title']);
        }
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, title: 'x'.repeat(101) } });
        assert.match(res.body.errors[0].message, /at most 100 characters/);
        assert.equal(await count(), before, 'nothing was created');
      });

      it('leaves v1 and v2 as they were: a title there is not taken', async () => {
        const v2 = await env.med.post('/v2/meeting', { json: { ownerEmail: ann().email, title: 'Ignored?' } });
        const v1 = await env.med.post('/meeting', { form: { owner_email: ann().email, title: 'Ignored?' } });
        for (const res of [v2, v1]) {
          if (res.status === 201) {
            assert.equal('title' in res.body, false);
            assert.equal((await env.db.store.findMeeting(env.medical.organization.id, res.body.id))?.title, null);
          } else assert.equal(res.status, 400);
        }
      });

      it('uses a given meetingId as the id, in lowercase, readable in any letter case', async () => {
        const id = randomUUID();
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id.toUpperCase() } });
        assertCreated(res);
        assert.equal(res.body.id, id);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/meetings/${id}`);
        for (const path of [`/v3/meeting/${id.toUpperCase()}`, `/v2/meeting/${id.toUpperCase()}`, `/meeting/${id.toUpperCase()}`]) {
          const read = await env.med.get(path);
          assertOk(read);
          assert.equal(read.body.id, id);
        }
      });

      it('refuses a meetingId that is not a UUID v4', async () => {
        for (const meetingId of ['not-a-uuid', 'a8098c1a-f86e-11da-bd1a-00112444be1e', '', randomUUID() + 'x']) {
          const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId } });
          assertProblem(res, 400, 'validation-failed', ['meetingId']);
        }
      });

      it('answers 409 when the meetingId is taken', async () => {
        const id = randomUUID();
        assertCreated(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id } }));
        const again = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id } });
        assertProblem(again, 409, 'conflict', ['meetingId']);
      });

      it('gives a short /m/<code> redirect URL when queryParameters are given, and stores them', async () => {
        const queryParameters = { displayName: 'Dr Lee', lang: 'de', audio: false, volume: 3 };
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters } });
        assertCreated(res);
        assert.match(res.body.redirectUrl, SHORT_URL);
        const stored = await env.db.store.findMeeting(env.medical.organization.id, res.body.id);
        assert.deepEqual(stored?.queryParameters, queryParameters);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/m/${stored?.shortCode}`);
        const read = await env.med.get(`/v3/meeting/${res.body.id}`);
        assert.equal(read.body.redirectUrl, res.body.redirectUrl);
      });

      it('gives distinct short codes to distinct meetings', async () => {
        const a = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { a: 1 } } });
        const b = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { a: 1 } } });
        assert.notEqual(a.body.redirectUrl, b.body.redirectUrl);
      });

      it('refuses nested or array queryParameters', async () => {
        const nested = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { ui: { theme: 'dark' } } } });
        assertProblem(nested, 400, 'validation-failed', ['queryParameters.ui']);
        const list = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: ['lang', 'de'] } });
        assertProblem(list, 400, 'validation-failed', ['queryParameters']);
        const arrayValue = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { tags: ['a'] } } });
        assertProblem(arrayValue, 400, 'validation-failed', ['queryParameters.tags']);
        const nullValue = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { x: null } } });
        assertProblem(nullValue, 400, 'validation-failed', ['queryParameters.x']);
        assert.equal(nullValue.body.errors[0].message, 'queryParameters.x must be a string, a number or a boolean.');
      });

      it('refuses queryParameters beyond their bounds: 50 keys, keys of 1 to 64 characters, values of 1000', async () => {
        const post = (queryParameters: object) => env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters } });
        const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
        assertCreated(await post(fifty));
        assertProblem(await post({ ...fifty, k50: 50 }), 400, 'validation-failed', ['queryParameters']);
        assertCreated(await post({ ['k'.repeat(64)]: 'x', v: 'y'.repeat(1000) }));
        assertProblem(await post({ ['k'.repeat(65)]: 'x' }), 400, 'validation-failed', [`queryParameters.${'k'.repeat(65)}`]);
        assertProblem(await post({ '': 'x' }), 400, 'validation-failed', ['queryParameters.']);
        assertProblem(await post({ v: 'y'.repeat(1001) }), 400, 'validation-failed', ['queryParameters.v']);
      });

      it('lists every invalid field at once', async () => {
        const res = await env.med.post('/v3/meeting', { json: { type: 'party', meetingId: 'nope' } });
        assertProblem(res, 400, 'validation-failed', ['meetingId', 'ownerEmail', 'type']);
      });

      it('creates nothing when a request is refused', async () => {
        const id = randomUUID();
        assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id, type: 'bogus' } }), 400, 'validation-failed');
        assertProblem(await env.med.post('/v3/meeting', { json: { meetingId: id } }), 400, 'validation-failed');
        assertProblem(await env.med.get(`/v3/meeting/${id}`), 404, 'not-found');
        assert.equal(await env.db.store.live.findMeetingRecord({ id }), undefined);
        // The id is still free.
        assertCreated(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id } }));
      });
    });

    describe('one meeting, three presentations', () => {
      it('reads a meeting created through v1 through v2 and v3', async () => {
        const created = await env.med.post('/meeting', { form: { owner_email: ann().email } });
        const v2 = await env.med.get(`/v2/meeting/${created.body.id}`);
        assert.deepEqual(v2.body, { id: created.body.id, redirectUrl: created.body.redirect_url });
        const v3 = await env.med.get(`/v3/meeting/${created.body.id}`);
        assert.deepEqual(v3.body, { id: created.body.id, redirectUrl: created.body.redirect_url, isInfinite: false, state: 'open', closedAt: null });
      });

      it('reads a v3 CONSULTATION with a short link through v1 and v2', async () => {
        const created = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION', queryParameters: { lang: 'fr' } } });
        const v1 = await env.med.get(`/meeting/${created.body.id}`);
        assert.deepEqual(v1.body, { id: created.body.id, redirect_url: created.body.redirectUrl });
        const v2 = await env.med.get(`/v2/meeting/${created.body.id}`);
        assert.deepEqual(v2.body, { id: created.body.id, redirectUrl: created.body.redirectUrl });
      });

      it('reads a v2 meeting through v1 and v3', async () => {
        const created = await env.bas.post('/v2/meeting', { json: {} });
        assert.deepEqual((await env.bas.get(`/meeting/${created.body.id}`)).body, { id: created.body.id, redirect_url: created.body.redirectUrl });
        assert.deepEqual((await env.bas.get(`/v3/meeting/${created.body.id}`)).body, { ...created.body, isInfinite: false, state: 'open', closedAt: null });
      });
    });

    describe('unknown ids and tenancy', () => {
      it('answers 404 for an unknown or malformed meeting id in every version', async () => {
        for (const path of ['/meeting/', '/v2/meeting/', '/v3/meeting/']) {
          assertProblem(await env.med.get(path + randomUUID()), 404, 'not-found');
          assertProblem(await env.med.get(path + 'not-a-uuid'), 404, 'not-found');
        }
      });

      it("answers 404 for another organization's meeting, with the same body as for an unknown one", async () => {
        const theirs = await env.str.post('/v3/meeting', { json: { ownerEmail: env.stranger.users[0]!.email } });
        assertCreated(theirs);
        for (const path of ['/meeting/', '/v2/meeting/', '/v3/meeting/']) {
          const foreign = await env.med.get(path + theirs.body.id);
          const unknown = await env.med.get(path + randomUUID());
          assertProblem(foreign, 404, 'not-found');
          assert.deepEqual(foreign.body, unknown.body);
        }
        const deleted = await env.med.delete(`/v3/meeting/${theirs.body.id}`);
        assertProblem(deleted, 404, 'not-found');
        assertOk(await env.str.get(`/v3/meeting/${theirs.body.id}`));
      });
    });

    describe('v3 deletion', () => {
      it('deletes a meeting, answers the deleted meeting, then answers 404 everywhere', async () => {
        const created = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, isInfinite: true } });
        const deleted = await env.med.delete(`/v3/meeting/${created.body.id.toUpperCase()}`);
        assertOk(deleted);
        assert.deepEqual(deleted.body, created.body);
        for (const path of ['/meeting/', '/v2/meeting/', '/v3/meeting/']) {
          assertProblem(await env.med.get(path + created.body.id), 404, 'not-found');
        }
        assertProblem(await env.med.delete(`/v3/meeting/${created.body.id}`), 404, 'not-found');
      });

      it('answers the v3 CONSULTATION shape when deleting a consultation', async () => {
        const created = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, type: 'CONSULTATION' } });
        const deleted = await env.med.delete(`/v3/meeting/${created.body.id}`);
        assert.deepEqual(keysOf(deleted.body), ['id', 'redirectUrl']);
      });

      it('keeps a deleted meeting id taken', async () => {
        const id = randomUUID();
        await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id } });
        assertOk(await env.med.delete(`/v3/meeting/${id}`));
        assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: id } }), 409, 'conflict', ['meetingId']);
      });

      it('has no DELETE in v1 and v2', async () => {
        const created = await env.med.post('/v2/meeting', { json: { ownerEmail: ann().email } });
        assertProblem(await env.med.delete(`/v2/meeting/${created.body.id}`), 404, 'not-found');
        assertProblem(await env.med.delete(`/meeting/${created.body.id}`), 404, 'not-found');
        assertOk(await env.med.get(`/v2/meeting/${created.body.id}`));
      });
    });
  });
}
