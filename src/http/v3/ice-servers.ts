/**
 * @module http/v3/ice-servers
 * `GET /v3/ice-servers` (an extension beyond the spec): the STUN and TURN
 * servers, with TURN credentials of their own, for a participant that is
 * not a browser page (a recorder, a bot, a gateway run by the
 * organization's server). Pages get the same with their HTML, and every
 * participant with its `welcome`. The TURN secret never leaves the server:
 * only credentials derived from it, which expire.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IceConfig } from '../../config.ts';
import type { DomainContext } from '../../domain/context.ts';
import { issueIceServers } from '../../realtime/ice.ts';
import { named } from '../openapi-document.ts';
import { actorOf } from '../plugins/auth.ts';
import { problemResponses } from '../route-schemas.ts';

type V3Instance = Parameters<FastifyPluginAsyncTypebox>[0];

const IceServerSchema = named(
  'IceServer',
  Type.Object({
    urls: Type.Array(Type.String(), { description: 'stun:, turn: or turns: URLs, as RTCIceServer.urls.' }),
    username: Type.Optional(Type.String({ description: 'TURN username: `<expiry in Unix seconds>:foyer` when Foyer issues credentials.' })),
    credential: Type.Optional(Type.String({ description: 'TURN password for that username.' })),
  }),
);

const IceServersSchema = named(
  'IceServers',
  Type.Object({
    iceServers: Type.Array(IceServerSchema, { description: 'As RTCConfiguration.iceServers; empty when the operator configured none.' }),
    iceTransportPolicy: Type.Union([Type.Literal('all'), Type.Literal('relay')], {
      description: 'relay: the operator wants media through the TURN relay only (RTCConfiguration.iceTransportPolicy).',
    }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the issued TURN credentials stop working (12 hours after issue); null when none were issued (no TURN, or static credentials). Ask again for a longer call.',
    }),
  }),
);

export function registerIceServerRoutes(app: V3Instance, ctx: DomainContext, ice: IceConfig): void {
  app.get(
    '/ice-servers',
    {
      schema: {
        tags: ['v3'],
        operationId: 'v3GetIceServers',
        summary: 'STUN and TURN servers, with fresh TURN credentials',
        description:
          'Extension beyond the spec. For a participant that is not a browser page: the ICE servers a meeting page gets, with TURN credentials of its own (derived from the operator’s TURN_SECRET, which is never sent). See docs/signalling.md.',
        response: { 200: IceServersSchema, ...problemResponses() },
      },
    },
    async (request) => {
      actorOf(request);
      const issued = issueIceServers(ice, ctx.now());
      return { iceServers: issued.iceServers, iceTransportPolicy: ice.transportPolicy, expiresAt: issued.expiresAt?.toISOString() ?? null };
    },
  );
}
