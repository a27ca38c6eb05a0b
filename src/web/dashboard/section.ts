/**
 * @module web/dashboard/section
 * What a section of the dashboard is: a function that adds its routes to
 * the dashboard's scope (paths relative to `/dashboard`), given the domain
 * context and the configuration. plugin.ts lists the sections.
 *
 * Every route requires a signed-in member (its handler calls
 * `requireMember`) unless its options say `config: { public: true }`:
 * signing in, setting a password. The route-table tests read this mark,
 * so a route without it is tested as one that needs a member.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { DomainContext } from '../../domain/context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard route for visitors without a session (see above). */
    public?: boolean;
  }
}

export interface DashboardOptions {
  ctx: DomainContext;
  config: Config;
}

export type DashboardRoutes = (app: FastifyInstance, options: DashboardOptions) => void | Promise<void>;
