/**
 * @module store/queries/waiting
 * Live waiting lists: entries, members' current client and status, and the
 * open consoles. Races are settled in SQL: every transition is an UPDATE
 * whose WHERE names the state it leaves (and a member is claimed only while
 * they have no current client), so of two instances doing the same, one
 * changes a row and the other changes none. Taking the next client locks
 * the first waiting row with FOR UPDATE SKIP LOCKED on PostgreSQL, so two
 * members taking the next at once get different clients; SQLite runs one
 * write transaction at a time and needs no lock.
 */
import type { WaitingStore } from '../../domain/waiting/ports.ts';
import { ACTIVE_STATES, parseReadiness, type MemberConsole, type WaitingEntry, type WaitingState } from '../../domain/waiting/types.ts';
import { toDate, toDateOrNull, toInt, toMillis } from '../mappers.ts';
import type { MemberConsolesTable, WaitingEntriesTable } from '../schema.ts';
import { translated, type QueryContext } from './db.ts';

type Change = Parameters<WaitingStore['updateWaitingEntry']>[2];

export const waitingQueries: WaitingStore & ThisType<QueryContext> = {
  async insertWaitingEntry(entry) {
    await translated(this.translate, () => this.db.insertInto('waiting_entries').values(entryToRow(entry)).execute());
  },

  async findWaitingEntry(id) {
    const row = await this.db.selectFrom('waiting_entries').selectAll().where('id', '=', id).executeTakeFirst();
    return row && rowToEntry(row);
  },

  async findWaitingEntryByConnection(connectionId) {
    const row = await this.db.selectFrom('waiting_entries').selectAll().where('connection_id', '=', connectionId).executeTakeFirst();
    return row && rowToEntry(row);
  },

  async findWaitingEntryByMeeting(meetingId) {
    const row = await this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('meeting_id', '=', meetingId)
      .where('state', 'in', ['reserved', 'in_call'])
      .executeTakeFirst();
    return row && rowToEntry(row);
  },

  async listWaitingEntries(spaceId, states) {
    if (states.length === 0) return [];
    const rows = await this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('state', 'in', [...states])
      .orderBy('arrived_at')
      .orderBy('id')
      .execute();
    return rows.map(rowToEntry);
  },

  async listEndedWaitingEntries(spaceId, since, limit) {
    const rows = await this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('ended_at', '>=', toMillis(since))
      .orderBy('ended_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(rowToEntry);
  },

  async updateWaitingEntry(id, condition, change) {
    let query = this.db
      .updateTable('waiting_entries')
      .set(changeToRow(change))
      .where('id', '=', id)
      .where('state', 'in', [...condition.from]);
    if (condition.connectionId !== undefined) {
      query = condition.connectionId === null ? query.where('connection_id', 'is', null) : query.where('connection_id', '=', condition.connectionId);
    }
    const row = await query.returningAll().executeTakeFirst();
    return row && rowToEntry(row);
  },

  async lockFirstWaiting(spaceId, connectedSince) {
    let query = this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where('state', '=', 'waiting')
      .where((eb) => eb.or([eb('disconnected_at', 'is', null), eb('disconnected_at', '>=', toMillis(connectedSince))]))
      .orderBy('arrived_at')
      .orderBy('id')
      .limit(1);
    if (this.dialect === 'postgres') query = query.forUpdate().skipLocked();
    const row = await query.executeTakeFirst();
    return row && rowToEntry(row);
  },

  async countActiveEntries(spaceId, addressKey) {
    let query = this.db
      .selectFrom('waiting_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('space_id', '=', spaceId)
      .where('state', 'in', [...ACTIVE_STATES]);
    if (addressKey !== undefined) query = query.where('address_key', '=', addressKey);
    return Number((await query.executeTakeFirstOrThrow()).n);
  },

  async listUnansweredEntries(arrivedBefore) {
    const rows = await this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('state', '=', 'waiting')
      .where('answered_at', 'is', null)
      .where('arrived_at', '<', toMillis(arrivedBefore))
      .execute();
    return rows.map(rowToEntry);
  },

  async listLapsedReservations(at) {
    const rows = await this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('state', 'in', ['reserved', 'in_call'])
      .where('reserved_until', 'is not', null)
      .where('reserved_until', '<', toMillis(at))
      .execute();
    return rows.map(rowToEntry);
  },

  async listAbandonedEntries(before) {
    const rows = await this.db
      .selectFrom('waiting_entries')
      .selectAll()
      .where('state', 'in', [...ACTIVE_STATES])
      .where('connection_id', 'is', null)
      .where('disconnected_at', '<', toMillis(before))
      .execute();
    return rows.map(rowToEntry);
  },

  async disconnectStaleEntries(staleBefore, at) {
    await this.db
      .updateTable('waiting_entries')
      .set({ connection_id: null, instance_id: null, disconnected_at: toMillis(at) })
      .where('state', 'in', [...ACTIVE_STATES])
      .where('connection_id', 'is not', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('instances').select('id').whereRef('instances.id', '=', 'waiting_entries.instance_id').where('seen_at', '>=', toMillis(staleBefore)),
          ),
        ),
      )
      .execute();
  },

  async listSpacesWithWaiting() {
    const rows = await this.db.selectFrom('waiting_entries').select(['space_id', 'organization_id']).distinct().where('state', '=', 'waiting').execute();
    return rows.map((r) => ({ spaceId: r.space_id, organizationId: r.organization_id }));
  },

  async claimMember(spaceId, userId, entryId) {
    const result = await this.db
      .updateTable('space_members')
      .set({ current_entry_id: entryId })
      .where('space_id', '=', spaceId)
      .where('user_id', '=', userId)
      .where('current_entry_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async releaseMember(spaceId, userId, entryId) {
    await this.db
      .updateTable('space_members')
      .set({ current_entry_id: null, joined_call_at: null })
      .where('space_id', '=', spaceId)
      .where('user_id', '=', userId)
      .where('current_entry_id', '=', entryId)
      .execute();
  },

  async setMemberCallStarted(spaceId, userId, at) {
    await this.db
      .updateTable('space_members')
      .set({ joined_call_at: at ? toMillis(at) : null })
      .where('space_id', '=', spaceId)
      .where('user_id', '=', userId)
      .execute();
  },

  async setMemberStatus(spaceId, userId, status) {
    const set: { is_active?: 0 | 1; is_auto_accepting?: 0 | 1 } = {};
    if (status.isActive !== undefined) set.is_active = toInt(status.isActive);
    if (status.isAutoAccepting !== undefined) set.is_auto_accepting = toInt(status.isAutoAccepting);
    if (Object.keys(set).length === 0) return true;
    const result = await this.db.updateTable('space_members').set(set).where('space_id', '=', spaceId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async memberCurrentEntry(spaceId, userId) {
    const row = await this.db
      .selectFrom('space_members')
      .select('current_entry_id')
      .where('space_id', '=', spaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.current_entry_id ?? null;
  },

  async openConsole(console) {
    await this.db.insertInto('member_consoles').values(consoleToRow(console)).execute();
  },

  async closeConsole(connectionId) {
    const row = await this.db.deleteFrom('member_consoles').where('connection_id', '=', connectionId).returningAll().executeTakeFirst();
    return row && rowToConsole(row);
  },

  async listConsoles(spaceId, staleBefore) {
    const rows = await this.db
      .selectFrom('member_consoles')
      .innerJoin('instances', 'instances.id', 'member_consoles.instance_id')
      .selectAll('member_consoles')
      .where('member_consoles.space_id', '=', spaceId)
      .where('instances.seen_at', '>=', toMillis(staleBefore))
      .orderBy('member_consoles.opened_at')
      .execute();
    return rows.map(rowToConsole);
  },

  async reapConsoles(staleBefore) {
    const rows = await this.db
      .deleteFrom('member_consoles')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb.selectFrom('instances').select('id').whereRef('instances.id', '=', 'member_consoles.instance_id').where('seen_at', '>=', toMillis(staleBefore)),
          ),
        ),
      )
      .returningAll()
      .execute();
    return rows.map(rowToConsole);
  },
};

const ms = (d: Date | null | undefined) => (d ? toMillis(d) : null);

function entryToRow(e: WaitingEntry): WaitingEntriesTable {
  return {
    id: e.id,
    space_id: e.spaceId,
    organization_id: e.organizationId,
    display_name: e.displayName,
    token_hash: e.tokenHash,
    state: e.state,
    arrived_at: toMillis(e.arrivedAt),
    connection_id: e.connectionId,
    instance_id: e.instanceId,
    disconnected_at: ms(e.disconnectedAt),
    served_by: e.servedBy,
    reserved_until: ms(e.reservedUntil),
    meeting_id: e.meetingId,
    accepted_at: ms(e.acceptedAt),
    call_started_at: ms(e.callStartedAt),
    ended_at: ms(e.endedAt),
    outcome: e.outcome,
    message: e.message,
    readiness: e.readiness ? JSON.stringify(e.readiness) : null,
    address_key: e.addressKey,
    answered_at: ms(e.answeredAt),
  };
}

/** Only the fields given; dates to milliseconds. */
function changeToRow(change: Change): Partial<WaitingEntriesTable> {
  const row: Partial<WaitingEntriesTable> = {};
  const dates = { answeredAt: 'answered_at', disconnectedAt: 'disconnected_at', reservedUntil: 'reserved_until', acceptedAt: 'accepted_at', callStartedAt: 'call_started_at', endedAt: 'ended_at' } as const;
  const plain = { displayName: 'display_name', state: 'state', connectionId: 'connection_id', instanceId: 'instance_id', servedBy: 'served_by', meetingId: 'meeting_id', outcome: 'outcome', message: 'message' } as const;
  for (const [field, column] of Object.entries(dates)) {
    if (field in change) (row as Record<string, unknown>)[column] = ms(change[field as keyof typeof dates]);
  }
  for (const [field, column] of Object.entries(plain)) {
    if (field in change) (row as Record<string, unknown>)[column] = change[field as keyof typeof plain];
  }
  if ('readiness' in change) row.readiness = change.readiness ? JSON.stringify(change.readiness) : null;
  return row;
}

function rowToEntry(r: WaitingEntriesTable): WaitingEntry {
  return {
    id: r.id,
    spaceId: r.space_id,
    organizationId: r.organization_id,
    displayName: r.display_name,
    tokenHash: r.token_hash,
    state: r.state as WaitingState,
    arrivedAt: toDate(r.arrived_at),
    connectionId: r.connection_id,
    instanceId: r.instance_id,
    disconnectedAt: toDateOrNull(r.disconnected_at),
    servedBy: r.served_by,
    reservedUntil: toDateOrNull(r.reserved_until),
    meetingId: r.meeting_id,
    acceptedAt: toDateOrNull(r.accepted_at),
    callStartedAt: toDateOrNull(r.call_started_at),
    endedAt: toDateOrNull(r.ended_at),
    outcome: r.outcome,
    message: r.message,
    readiness: r.readiness ? parseReadiness(JSON.parse(r.readiness)) : null,
    addressKey: r.address_key,
    answeredAt: toDateOrNull(r.answered_at),
  };
}

function consoleToRow(c: MemberConsole): MemberConsolesTable {
  return {
    connection_id: c.connectionId,
    space_id: c.spaceId,
    organization_id: c.organizationId,
    user_id: c.userId,
    instance_id: c.instanceId,
    opened_at: toMillis(c.openedAt),
  };
}

function rowToConsole(r: MemberConsolesTable): MemberConsole {
  return {
    connectionId: r.connection_id,
    spaceId: r.space_id,
    organizationId: r.organization_id,
    userId: r.user_id,
    instanceId: r.instance_id,
    openedAt: toDate(r.opened_at),
  };
}
