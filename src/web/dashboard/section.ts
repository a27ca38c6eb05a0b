/**
 * @module web/dashboard/section
 * What a section of the dashboard is: a function that adds its routes to
 * the dashboard's scope (paths relative to `/dashboard`), given the domain
 * context and the configuration. plugin.ts lists the sections.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { DomainContext } from '../../domain/context.ts';

export interface DashboardOptions {
  ctx: DomainContext;
  config: Config;
}

export type DashboardRoutes = (app: FastifyInstance, options: DashboardOptions) => void | Promise<void>;
