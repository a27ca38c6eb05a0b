/**
 * @module scripts/seeds/places
 * A full organization for screenshots of the dashboard's meetings, rooms,
 * boards and queues: meetings of every state (open, closed, deleted,
 * never closing, with query parameters), rooms, and boards and queues
 * with members. Returns ids for the PATHs of dashboard-shots.ts:
 *
 *   node --import tsx scripts/dashboard-shots.ts --seed scripts/seeds/places.ts \
 *     /dashboard/meetings /dashboard/meetings/:meeting /dashboard/rooms \
 *     /dashboard/boards /dashboard/boards/:board /dashboard/queues /dashboard/queues/:queue
 */
import type { Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { addUser } from '../../src/domain/organizations.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Organization } from '../../src/domain/types.ts';

const MINUTE = 60_000;

export default async function seedPlaces(ctx: DomainContext, _org: Organization, operator: Actor): Promise<Record<string, string>> {
  const at = (minutesAgo: number): DomainContext => ({ ...ctx, now: () => new Date(Date.now() - minutesAgo * MINUTE) });
  const carla = await addUser(ctx, operator, { email: 'carla.nunez@clinic.test', fullName: 'Carla Núñez', role: 'USER' });
  const owner = 'ann.lee@clinic.test';

  await createMeeting(at(26 * 60), operator, { type: 'MEETING', ownerEmail: owner, title: 'Weekly case review of the orthopaedics and physiotherapy teams' });
  const gone = await createMeeting(at(180), operator, { type: 'CONSULTATION', ownerEmail: 'bob.stone@clinic.test' });
  await deleteMeeting(ctx, operator, gone.id);
  await createMeeting(at(45), operator, { type: 'MEETING', isInfinite: true, ownerEmail: owner });
  await createMeeting(at(12), operator, { type: 'CONSULTATION', ownerEmail: carla.email, title: 'Knee, follow-up', queryParameters: { patient: 'A-1042', lang: 'de' } });
  const meeting = await createMeeting(at(2), operator, {
    type: 'CONSULTATION',
    ownerEmail: owner,
    queryParameters: { patient: 'B-2077', insurer: 'Techniker Krankenkasse', returnUrl: 'https://portal.clinic.test/visits/2077' },
  });

  await createRoom(at(300), operator, { slug: 'team-standup', title: 'Daily stand-up of the front desk' });
  await createRoom(at(90), operator, { slug: 'physio', title: '' });
  await createRoom(at(5), operator, { slug: 'cardiology-rounds-weekly', title: 'Cardiology rounds' });

  const members = (await ctx.store.listUsers(operator.organization.id)).map((u) => u.id);
  const board = await createSpace(at(60), operator, 'board', { name: 'Cardiology', slug: 'cardiology', closingMessage: 'We open again at 8:00.' });
  await updateSpace(ctx, operator, 'board', board.id, { memberIds: members.slice(0, 2) });
  await createSpace(at(30), operator, 'board', { name: 'Walk-in clinic', slug: 'walk-in', hasWaitingList: false });
  const closed = await createSpace(at(20), operator, 'board', { name: 'Dermatology', slug: 'dermatology' });
  await updateSpace(ctx, operator, 'board', closed.id, { isActive: false, memberIds: [carla.id] });
  const queue = await createSpace(at(10), operator, 'queue', { name: 'Pharmacy questions', slug: 'pharmacy', closingMessage: 'Closed on weekends.' });
  await updateSpace(ctx, operator, 'queue', queue.id, { memberIds: members });

  return { meeting: meeting.id, board: board.id, queue: queue.id };
}
