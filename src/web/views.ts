/**
 * @module web/views
 * Server-rendered HTML: Eta templates in ./views/, through @fastify/view
 * (`reply.viewAsync(name, data)`). views/layout.eta is every page's frame;
 * a new page adds a template that sets it as its layout.
 */
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';

const VIEWS_DIR = fileURLToPath(new URL('./views/', import.meta.url));

/** Numeric character references, as the pages have always had them (`&#60;`, not `&lt;`). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON safe inside a <script> element: no `<`, so no `</script>` or `<!--`;
 * and no raw U+2028/U+2029, which older JavaScript parsers take for line ends.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Registers the template engine on `app` (the web plugin's scope). */
export async function registerViews(app: FastifyInstance): Promise<void> {
  const eta = new Eta({
    views: VIEWS_DIR,
    // `<%= %>` escapes; only `<%~ %>` writes raw, for markup the server made safe itself.
    autoEscape: true,
    escapeFunction: (value) => escapeHtml(String(value)),
  });
  await app.register(fastifyView, {
    engine: { eta },
    templates: VIEWS_DIR,
    // Compile each template once: they change only with a deployment, like the code.
    production: true,
  });
}
