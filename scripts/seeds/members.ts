/**
 * @module scripts/seeds/members
 * Members and their record of changes for screenshots of the dashboard's
 * members section: members with and without a password (one invited and
 * still pending), a role given and one taken, one removed, as an ADMIN
 * would have done it over a few days.
 *
 *   node --import tsx scripts/dashboard-shots.ts --seed scripts/seeds/members.ts /dashboard/members /dashboard/members/changes
 */
import { memberActor, type Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { inviteMember, setPasswordWithLink } from '../../src/domain/member-links.ts';
import { addUser, changeUserRole, removeUser } from '../../src/domain/organizations.ts';
import type { Organization } from '../../src/domain/types.ts';

const DAY_MS = 86_400_000;

export default async function seedMembers(ctx: DomainContext, org: Organization, operator: Actor): Promise<Record<string, string>> {
  const now = Date.now();
  const at = (msAgo: number): DomainContext => ({ ...ctx, now: () => new Date(now - msAgo) });
  const ann = (await ctx.store.findUserByEmail(org.id, 'ann.lee@clinic.test'))!;
  const admin = memberActor(org, ann);
  const people = [
    ['dr.weber@clinic.test', 'Dr. Miriam Weber-Schönfeld', 'USER'],
    ['k.osei@clinic.test', 'Kwame Osei', 'USER'],
    ['front.desk@clinic.test', 'Front desk', 'USER'],
  ] as const;
  for (const [i, [email, fullName, role]] of people.entries()) {
    const issued = await inviteMember(at((6 - i) * DAY_MS), admin, { email, fullName, role });
    if (i < 2) await setPasswordWithLink(at((5 - i) * DAY_MS), new URL(issued.url).pathname.split('/').pop()!, 'a long enough passphrase');
  }
  const kwame = (await ctx.store.findUserByEmail(org.id, 'k.osei@clinic.test'))!;
  await changeUserRole(at(2 * DAY_MS), admin, { userId: kwame.id }, 'ADMIN');
  const leaving = await addUser(at(3 * DAY_MS), operator, { email: 'temp@clinic.test', fullName: 'Temporary locum' });
  await removeUser(at(DAY_MS), admin, { userId: leaving.id });
  await changeUserRole(at(DAY_MS / 2), admin, { userId: kwame.id }, 'USER');
  return {};
}
