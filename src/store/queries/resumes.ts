/**
 * @module store/queries/resumes
 * A participant kept while their socket is away, and taken back with their
 * resume token (migration 024). Each step is one conditional statement
 * (or one transaction), so instances racing on the same participant agree:
 * a detach or leave names the socket it expects (`socket_id`), a resume
 * names the token's hash and replaces it, and an expiry removes only rows
 * still away and past their grace, by the instance they dropped from (its
 * own participants' departures reach them even without Redis; if it dies,
 * the reaping of dead instances takes them).
 */
import type { LiveStore, RemovedPresence } from '../../domain/place-ports.ts';
import { atomically, type QueryContext } from './db.ts';
import { releaseIfEmpty, rowToParticipant, toPlace, uniquePlaces } from './presence.ts';

export type ResumeQueries = Pick<LiveStore, 'setResumeHash' | 'detach' | 'findResumable' | 'resume' | 'expireDetached'>;

export const resumeQueries: ResumeQueries & ThisType<QueryContext> = {
  async setResumeHash(participantId, hash) {
    await this.db.updateTable('presence').set({ resume_hash: hash }).where('connection_id', '=', participantId).execute();
  },

  async detach(participantId, socketId, until) {
    const row = await this.db
      .updateTable('presence')
      .set({ socket_id: null, detached_until: until.getTime() })
      .where('connection_id', '=', participantId)
      .where('socket_id', '=', socketId)
      .returning(['place_kind', 'place_id'])
      .executeTakeFirst();
    return row && toPlace(row);
  },

  async findResumable(hash) {
    const row = await this.db.selectFrom('presence').select(['place_kind', 'place_id']).where('resume_hash', '=', hash).executeTakeFirst();
    return row && toPlace(row);
  },

  async resume({ hash, nextHash, place, socketId, instanceId, at }) {
    const row = await this.db
      .updateTable('presence')
      .set({ socket_id: socketId, instance_id: instanceId, detached_until: null, resume_hash: nextHash })
      .where('resume_hash', '=', hash)
      .where('place_kind', '=', place.kind)
      .where('place_id', '=', place.id)
      // Away and within the grace, or still held by a socket the server has not seen drop yet (that socket is then superseded).
      .where((eb) => eb.or([eb('detached_until', 'is', null), eb('detached_until', '>', at.getTime())]))
      .returningAll()
      .executeTakeFirst();
    return row && rowToParticipant(row);
  },

  async expireDetached(instanceId, clock) {
    return atomically(this.db, async (trx) => {
      const rows = await trx
        .deleteFrom('presence')
        .where('instance_id', '=', instanceId)
        .where('detached_until', 'is not', null)
        .where('detached_until', '<=', clock.at.getTime())
        .returning(['connection_id', 'place_kind', 'place_id'])
        .execute();
      const gone: RemovedPresence[] = rows.map((r) => ({ connectionId: r.connection_id, place: toPlace(r) }));
      for (const place of uniquePlaces(gone.map((g) => g.place))) await releaseIfEmpty(trx, place, clock.at.getTime() + clock.idleMs, clock.staleBefore.getTime());
      return gone;
    });
  },
};
