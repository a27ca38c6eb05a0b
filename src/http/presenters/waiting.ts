/**
 * @module http/presenters/waiting
 * A board's or queue's waiting list as the API shows it, and the answer
 * to taking a client for a member: the call's meeting and that member's
 * own link to it.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import type { WaitingClient } from '../../domain/waiting/dispatch.ts';
import type { Assignment } from '../../domain/waiting/serving.ts';
import { named } from '../openapi-document.ts';
import { responseId } from '../route-schemas.ts';

const device = (what: string) =>
  Type.Union([Type.Literal('ok'), Type.Literal('off'), Type.Literal('blocked'), Type.Literal('missing'), Type.Literal('failed')], {
    description: `The ${what}: ok (working), off (switched off by the client), blocked (permission refused), missing (none found), failed (any other problem).`,
  });

/** Also the `readiness` of the waiting.client.joined webhook. */
export const ReadinessSchema = Type.Object(
  {
    camera: device('camera'),
    microphone: device('microphone'),
    network: Type.Union([Type.Literal('good'), Type.Literal('fair'), Type.Literal('poor'), Type.Literal('unknown')], {
      description: 'The signalling round trip from their page: good under 150 ms, fair under 400 ms, poor above; unknown when it could not be measured.',
    }),
  },
  { description: 'A waiting client’s device and network check.' },
);

export const WaitingClientSchema = named('WaitingClient', Type.Object({
  entryId: responseId('The client’s waiting entry (the entryId of waiting.* webhooks).'),
  displayName: Type.String(),
  position: Type.Integer({ minimum: 1, description: '1 for the first in line.' }),
  waitingSince: Type.String({ format: 'date-time' }),
  connected: Type.Boolean({ description: 'Their waiting page is connected now; false while they are away within the grace period (WAITING_GRACE_SECONDS).' }),
  readiness: Type.Union([ReadinessSchema, Type.Null()], {
    description: 'Foyer extension. The device and network check the client’s page ran, as it last reported it (again while they wait); null when their page has not reported one.',
  }),
}));

export const WaitingListSchema = named('WaitingList', Type.Object({ waiting: Type.Array(WaitingClientSchema) }));

export const TakenClientSchema = named('TakenClient', Type.Object({
  entryId: responseId(),
  userId: responseId('The member who serves the client.'),
  meetingId: responseId('The private call (a CONSULTATION the member owns and hosts).'),
  redirectUrl: Type.String({
    description:
      'The member’s own link to the call (it carries their pass: opened without a dashboard session, the page joins as that member, for this meeting only, for SESSION_MAX_HOURS). Give it to that member only. The member must join within WAITING_LEASE_SECONDS, or the client goes back to the front of the line.',
  }),
}));

export function presentWaitingClient(c: WaitingClient): Static<typeof WaitingClientSchema> {
  return { entryId: c.entryId, displayName: c.displayName, position: c.position, waitingSince: c.waitingSince.toISOString(), connected: c.connected, readiness: c.readiness };
}

export function presentTakenClient(a: Assignment, redirectUrl: string): Static<typeof TakenClientSchema> {
  return { entryId: a.entry.id, userId: a.memberId, meetingId: a.meetingId, redirectUrl };
}
