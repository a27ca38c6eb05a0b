/**
 * @module test/support/dashboard-routes
 * The dashboard's route table, read from Fastify itself: the dashboard
 * plugin (with every section it lists) is registered in a throwaway
 * Fastify instance whose `onRoute` hook records each route as it is added,
 * with the `public` mark of its config. Tests built on this cover a route
 * as soon as a section adds it; a test server then confirms each one is
 * really served (`hasRoute`).
 */
import Fastify from 'fastify';
import type { Config } from '../../src/config.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { dashboardPlugin } from '../../src/web/dashboard/plugin.ts';
import { DASHBOARD } from '../../src/web/dashboard/session.ts';

export interface DashboardRoute {
  method: string;
  /** As registered, with `:name` parameters: `/dashboard/boards/:id`. */
  url: string;
  params: string[];
  public: boolean;
}

export async function dashboardRouteTable(ctx: DomainContext, config: Config): Promise<DashboardRoute[]> {
  const app = Fastify({ logger: false });
  const routes = new Map<string, DashboardRoute>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // HEAD is Fastify's automatic twin of each GET; a trailing slash is the same route.
    const url = route.url.length > 1 ? route.url.replace(/\/$/, '') : route.url;
    for (const method of methods.filter((m) => m !== 'HEAD')) {
      const params = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      routes.set(`${method} ${url}`, { method, url, params, public: route.config?.public === true });
    }
  });
  await app.register(dashboardPlugin, { ctx, config, prefix: DASHBOARD });
  await app.ready();
  await app.close();
  return [...routes.values()].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

/** Every way to fill a route's parameters from `values` (each parameter takes each value). */
export function fillings(route: DashboardRoute, values: string[]): string[] {
  let paths = [route.url];
  for (const param of route.params) {
    paths = paths.flatMap((path) => values.map((value) => path.replace(`:${param}`, encodeURIComponent(value))));
  }
  return paths;
}
