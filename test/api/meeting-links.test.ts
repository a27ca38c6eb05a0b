/**
 * Two answers of POST /v3/meeting, on SQLite and PostgreSQL:
 * - stored `queryParameters` that a short link could not carry (the URL it
 *   redirects to would be longer than Foyer itself takes) are refused with
 *   400 at creation; the longest accepted ones open the page (200, not 431);
 * - another organization's meetingId is refused exactly as a malformed one
 *   is (the same 400, whatever else the body holds), so the answer does not
 *   tell that it exists; the caller's own taken id stays 409.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { SHORT_LINK_QUERY_MAX_BYTES } from '../../src/domain/meetings.ts';
import { testDatabases } from '../support/databases.ts';
import { assertCreated, assertProblem, useApi } from './harness.ts';

/** What a browser sends besides the URL, generously (about 1.5 KB): a page it opens carries these too. */
const BROWSER_HEADERS = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  'accept-language': 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7',
  'accept-encoding': 'gzip, deflate, br, zstd',
  cookie: `foyer_participant=${'p'.repeat(24)}; foyer_session=${'s'.repeat(43)}; foyer_lang=de; _ga=${'g'.repeat(600)}`,
  'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'upgrade-insecure-requests': '1',
};

for (const storage of await testDatabases()) {
  describe(`meeting links on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);
    const ann = () => env.medical.users[0]!;

    /** Follows a short link as a browser does, with a browser's headers; answers the page's status and URL length. */
    const open = async (redirectUrl: string) => {
      const link = await fetch(env.server.origin + new URL(redirectUrl).pathname, { redirect: 'manual', headers: BROWSER_HEADERS });
      assert.equal(link.status, 302);
      const location = link.headers.get('location')!;
      const page = await fetch(env.server.origin + location, { headers: BROWSER_HEADERS });
      await page.arrayBuffer();
      return { status: page.status, length: location.length };
    };

    it('refuses at creation parameters whose short link would lead to a URL Foyer answers with 431', async () => {
      const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, 'x'.repeat(1000)]));
      const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: fifty } });
      assertProblem(res, 400, 'validation-failed', ['queryParameters']);
      assert.match(res.body.errors[0].message, new RegExp(`at most ${SHORT_LINK_QUERY_MAX_BYTES}`));
      // Non-ASCII text counts as the redirect writes it, percent-encoded (ü is 6 characters there).
      const encoded = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { a: 'ü'.repeat(1000), b: 'ü'.repeat(1000) } } });
      assertProblem(encoded, 400, 'validation-failed', ['queryParameters']);
    });

    it('accepts the longest parameters a short link carries, and that link opens the meeting page', async () => {
      // 8 keys of 1,000 characters and a last one filling up to the limit exactly.
      const params: Record<string, string> = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, 'v'.repeat(1000)]));
      const used = new URLSearchParams(params).toString().length + '&last='.length;
      params.last = 'w'.repeat(SHORT_LINK_QUERY_MAX_BYTES - used);
      const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: params } });
      assertCreated(res);
      const opened = await open(res.body.redirectUrl);
      assert.equal(opened.status, 200, `the page of a ${opened.length}-character URL`);
      // One character more is refused.
      const over = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, queryParameters: { ...params, last: params.last + 'w' } } });
      assertProblem(over, 400, 'validation-failed', ['queryParameters']);
    });

    it('answers another organization’s meetingId exactly as a malformed one, alone or beside other errors', async () => {
      const theirs = randomUUID();
      assertCreated(await env.str.post('/v3/meeting', { json: { ownerEmail: env.stranger.users[0]!.email, meetingId: theirs } }));
      const deletedTheirs = randomUUID();
      assertCreated(await env.str.post('/v3/meeting', { json: { ownerEmail: env.stranger.users[0]!.email, meetingId: deletedTheirs } }));
      assert.equal((await env.str.delete(`/v3/meeting/${deletedTheirs}`)).status, 200);
      const answer = async (meetingId: string, extra: Record<string, unknown> = {}) => {
        const res = await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId, ...extra } });
        return { status: res.status, body: res.body, contentType: res.headers.get('content-type') };
      };
      const malformed = await answer('not-a-uuid');
      assert.equal(malformed.status, 400);
      for (const id of [theirs, theirs.toUpperCase(), deletedTheirs]) assert.deepEqual(await answer(id), malformed, id);
      const malformedWithMore = await answer('not-a-uuid', { type: 'party' });
      assert.deepEqual(await answer(theirs, { type: 'party' }), malformedWithMore);
      // An unknown one is created; the caller's own taken one is a conflict.
      const mine = randomUUID();
      assertCreated(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: mine } }));
      assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: ann().email, meetingId: mine } }), 409, 'conflict', ['meetingId']);
      // Theirs is untouched.
      assert.equal((await env.str.get(`/v3/meeting/${theirs}`)).status, 200);
    });
  });
}
