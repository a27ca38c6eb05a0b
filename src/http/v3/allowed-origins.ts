/**
 * @module http/v3/allowed-origins
 * `/v3/allowed-origins`: the origins allowed to embed the organization's
 * meeting, waiting and console pages (an extension beyond the spec). Read
 * with GET; replaced, as a whole, with POST, as boards are updated.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DomainContext } from '../../domain/context.ts';
import { MAX_ALLOWED_ORIGINS, getAllowedOrigins, setAllowedOrigins } from '../../domain/allowed-origins.ts';
import { actorOf } from '../plugins/auth.ts';
import { named } from '../openapi-document.ts';
import { BODY_ERRORS, problemResponses } from '../route-schemas.ts';

type V3Instance = Parameters<FastifyPluginAsyncTypebox>[0];

export const EMBEDDING_TAG = 'embedding';
const tags = [EMBEDDING_TAG];
const EXTENSION =
  "Extension beyond the spec. Each origin is exact: https://host[:port], or http:// on localhost, 127.0.0.1 or [::1]; no wildcards, no paths. They become the pages' CSP frame-ancestors (with 'self'), and the only parents the embedded pages post events to and take commands from. An empty list posts no events and leaves framing to the operator's FRAME_ANCESTORS.";

const AllowedOriginsSchema = named(
  'AllowedOrigins',
  Type.Object({
    origins: Type.Array(Type.String({ description: 'An origin, normalized: lower case, without a default port.' })),
  }),
);
const SetAllowedOriginsBody = Type.Object({
  origins: Type.Array(Type.String({ maxLength: 200 }), { maxItems: MAX_ALLOWED_ORIGINS, description: 'The whole new list; [] removes every origin.' }),
});

export function registerAllowedOriginRoutes(app: V3Instance, ctx: DomainContext): void {
  app.get(
    '/allowed-origins',
    {
      schema: {
        tags,
        operationId: 'v3GetAllowedOrigins',
        summary: 'The origins allowed to embed the organization’s pages',
        description: EXTENSION,
        response: { 200: AllowedOriginsSchema, ...problemResponses() },
      },
    },
    async (request) => ({ origins: await getAllowedOrigins(ctx, actorOf(request)) }),
  );

  app.post(
    '/allowed-origins',
    {
      schema: {
        tags,
        operationId: 'v3SetAllowedOrigins',
        summary: 'Replace the origins allowed to embed the organization’s pages; answers the new list',
        description: EXTENSION,
        body: SetAllowedOriginsBody,
        response: { 200: AllowedOriginsSchema, ...problemResponses(...BODY_ERRORS) },
      },
    },
    async (request) => ({ origins: await setAllowedOrigins(ctx, actorOf(request), request.body.origins) }),
  );
}
