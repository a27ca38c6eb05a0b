/**
 * @module web/bundles
 * Each page with a call ships as one script: its entry module and all it
 * imports, bundled by esbuild once per process from public/js/ (which
 * changes only with a deployment). The browser modules stay small files
 * (public/js/), but a browser fetches one file per page instead of one per
 * module: opening a link to the first remote frame was a quarter slower
 * with the page split into modules, even with every module preloaded
 * (scripts/join-latency.ts measures it).
 *
 * Served at `/static/bundles/<page>.<hash>.js` (with its source map): the
 * content hash is in the name, so a bundle is cached for good and a new
 * deployment's pages ask for new names.
 */
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';

const PUBLIC_JS = fileURLToPath(new URL('../../public/js/', import.meta.url));
export const BUNDLE_PREFIX = '/static/bundles/';

/** The pages bundled, by name: their entry under public/js/. */
export const PAGES = {
  meeting: 'pages/meeting.js',
  waiting: 'pages/waiting.js',
  console: 'pages/console.js',
} as const;
export type BundledPage = keyof typeof PAGES;

interface Bundle {
  file: string;
  code: string;
  map: string;
}

let bundles: Promise<Map<BundledPage, Bundle>> | undefined;
let ready: Map<BundledPage, Bundle> | undefined;

async function buildAll(): Promise<Map<BundledPage, Bundle>> {
  const out = new Map<BundledPage, Bundle>();
  for (const [page, entry] of Object.entries(PAGES) as Array<[BundledPage, string]>) {
    const result = await build({
      entryPoints: [PUBLIC_JS + entry],
      bundle: true,
      format: 'esm',
      target: ['es2020'],
      minify: true,
      sourcemap: 'external',
      write: false,
      outfile: `${page}.js`,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const code = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    const map = result.outputFiles.find((f) => f.path.endsWith('.map'))!.text;
    const file = `${page}.${createHash('sha256').update(code).digest('base64url').slice(0, 12)}.js`;
    out.set(page, { file, code: `${code}//# sourceMappingURL=${file}.map\n`, map });
  }
  ready = out;
  return out;
}

/** Builds the bundles (once per process); later calls share the first build. */
export function buildBundles(): Promise<Map<BundledPage, Bundle>> {
  bundles ??= buildAll();
  return bundles;
}

/** The address of `page`'s bundle; before the build has finished, its entry module (which works the same, fetched module by module). */
export function bundleUrl(page: BundledPage): string {
  const bundle = ready?.get(page);
  return bundle ? BUNDLE_PREFIX + bundle.file : `/static/js/${PAGES[page]}`;
}

/** Serves the bundles and their source maps, cached for good (their names change with their content). */
export async function bundleRoutes(app: FastifyInstance): Promise<void> {
  const built = await buildBundles();
  const files = new Map<string, { body: string; type: string }>();
  for (const bundle of built.values()) {
    files.set(bundle.file, { body: bundle.code, type: 'text/javascript; charset=utf-8' });
    files.set(`${bundle.file}.map`, { body: bundle.map, type: 'application/json; charset=utf-8' });
  }
  app.get<{ Params: { file: string } }>(`${BUNDLE_PREFIX}:file`, { schema: { hide: true } }, async (request, reply) => {
    const found = files.get(request.params.file);
    if (!found) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.header('x-content-type-options', 'nosniff');
    return reply.type(found.type).send(found.body);
  });
}
