/**
 * @module store/queries/members
 * Members signing in: users by email across organizations, password
 * hashes, one-time links, sessions, failed sign-ins.
 */
import type { MemberStore } from '../../domain/member-ports.ts';
import { normalizeEmail } from '../../domain/text.ts';
import type { MemberLink, MemberLinkPurpose, MemberSession, SignInMethod } from '../../domain/types.ts';
import { rowToUser, toDate, toDateOrNull, toMillis } from '../mappers.ts';
import type { MemberLinksTable, MemberSessionsTable } from '../schema.ts';
import { translated, type QueryContext } from './db.ts';

export const memberQueries: MemberStore & ThisType<QueryContext> = {
  async findUsersByEmail(email) {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email_lower', '=', normalizeEmail(email))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(rowToUser);
  },

  async findUser(organizationId, userId) {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && rowToUser(row);
  },

  async findPasswordHash(userId) {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    return row?.password_hash ?? undefined;
  },

  async setPasswordHash(userId, passwordHash) {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  },

  async insertMemberLink(link) {
    await translated(this.translate, () => this.db.insertInto('member_links').values(linkToRow(link)).execute());
  },

  async useMemberLink(tokenHash, at) {
    const ms = toMillis(at);
    const row = await this.db
      .updateTable('member_links')
      .set({ used_at: ms })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', ms)
      .returningAll()
      .executeTakeFirst();
    return row && rowToLink(row);
  },

  async findMemberLink(tokenHash) {
    const row = await this.db.selectFrom('member_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && rowToLink(row);
  },

  async countMemberLinksSince(userId, purpose, since) {
    const row = await this.db
      .selectFrom('member_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('created_at', '>=', toMillis(since))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertMemberSession(session) {
    await translated(this.translate, () => this.db.insertInto('member_sessions').values(sessionToRow(session)).execute());
  },

  async findMemberSession(idHash) {
    const row = await this.db.selectFrom('member_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
    return row && rowToSession(row);
  },

  async findMemberSessions(idHashes) {
    const found: MemberSession[] = [];
    // In slices: a statement's parameters are limited (SQLite: 32766, PostgreSQL: 65535).
    for (let i = 0; i < idHashes.length; i += 500) {
      const rows = await this.db.selectFrom('member_sessions').selectAll().where('id_hash', 'in', idHashes.slice(i, i + 500)).execute();
      found.push(...rows.map(rowToSession));
    }
    return found;
  },

  async touchMemberSession(idHash, at) {
    await this.db.updateTable('member_sessions').set({ last_seen_at: toMillis(at) }).where('id_hash', '=', idHash).execute();
  },

  async deleteMemberSession(idHash) {
    await this.db.deleteFrom('member_sessions').where('id_hash', '=', idHash).execute();
  },

  async deleteMemberSessionsOf(userId) {
    const result = await this.db.deleteFrom('member_sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  async recordSignInFailure({ email, address, at }) {
    await this.db.insertInto('sign_in_failures').values({ email_lower: normalizeEmail(email), address, at: toMillis(at) }).execute();
  },

  async countSignInFailures(by, since) {
    let query = this.db
      .selectFrom('sign_in_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('at', '>=', toMillis(since));
    query = 'email' in by ? query.where('email_lower', '=', normalizeEmail(by.email)) : query.where('address', '=', by.address);
    return Number((await query.executeTakeFirstOrThrow()).n);
  },

  async signInFailureStats(by, since) {
    let query = this.db
      .selectFrom('sign_in_failures')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('at').as('latest')])
      .where('address', '=', by.address)
      .where('at', '>=', toMillis(since));
    if (by.email !== undefined) query = query.where('email_lower', '=', normalizeEmail(by.email));
    const row = await query.executeTakeFirstOrThrow();
    return { count: Number(row.n), latest: row.latest === null || row.latest === undefined ? undefined : new Date(Number(row.latest)) };
  },

  async pruneSignInFailures(before) {
    await this.db.deleteFrom('sign_in_failures').where('at', '<', toMillis(before)).execute();
  },
};

function linkToRow(l: MemberLink): MemberLinksTable {
  return {
    token_hash: l.tokenHash,
    user_id: l.userId,
    organization_id: l.organizationId,
    purpose: l.purpose,
    created_at: toMillis(l.createdAt),
    expires_at: toMillis(l.expiresAt),
    used_at: l.usedAt ? toMillis(l.usedAt) : null,
  };
}

function rowToLink(r: MemberLinksTable): MemberLink {
  return {
    tokenHash: r.token_hash,
    userId: r.user_id,
    organizationId: r.organization_id,
    purpose: r.purpose as MemberLinkPurpose,
    createdAt: toDate(r.created_at),
    expiresAt: toDate(r.expires_at),
    usedAt: toDateOrNull(r.used_at),
  };
}

function sessionToRow(s: MemberSession): MemberSessionsTable {
  return {
    id_hash: s.idHash,
    user_id: s.userId,
    organization_id: s.organizationId,
    method: s.method,
    created_at: toMillis(s.createdAt),
    last_seen_at: toMillis(s.lastSeenAt),
    expires_at: toMillis(s.expiresAt),
  };
}

function rowToSession(r: MemberSessionsTable): MemberSession {
  return {
    idHash: r.id_hash,
    userId: r.user_id,
    organizationId: r.organization_id,
    method: r.method as SignInMethod,
    createdAt: toDate(r.created_at),
    lastSeenAt: toDate(r.last_seen_at),
    expiresAt: toDate(r.expires_at),
  };
}
