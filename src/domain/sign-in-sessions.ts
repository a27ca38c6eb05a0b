/**
 * @module domain/sign-in-sessions
 * Ending a member's sign-in sessions everywhere at once: when their password is
 * set, when they are removed, when they lose the ADMIN role.
 */
import { raise, type DomainContext } from './context.ts';
import type { MemberPorts } from './member-ports.ts';
import type { User } from './types.ts';

/**
 * Ends every sign-in session of a member, in the running unit of work: their
 * cookies stop working at once, and `member.signed_out` tells what
 * holds rights from those sessions (open sockets) to let go of them.
 */
export async function endSignInSessions(ctx: DomainContext<MemberPorts>, user: Pick<User, 'id' | 'organizationId'>): Promise<void> {
  await ctx.store.deleteMemberSessionsOf(user.id);
  raise(ctx, { type: 'member.signed_out', organizationId: user.organizationId, at: ctx.now(), userId: user.id });
}
