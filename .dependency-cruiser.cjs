/**
 * The layering of src/, checked by `npm test` (dependency-cruiser):
 * - the domain imports nothing else of src/ (it owns its ports);
 * - no import circles anywhere in src/;
 * - storage is opened only by the composition roots (context.ts, main.ts,
 *   server.ts); everything else reaches it through the domain's ports;
 * - the edges where people and operators act (web, realtime, cli) call
 *   the domain's commands, never the store: they import no port, and
 *   scripts/edges-call-commands.mjs (run with this check) refuses any use
 *   of the context's `store` in them;
 * - the edges (http, web, realtime, limits, cli) do not import each other's
 *   insides except where a seam is named below;
 * - each domain command names the aggregate ports it uses, never the whole
 *   Store (scripts/commands-name-ports.mjs, run with this check).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing else of src/: the other folders depend on it, never the reverse.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'no-circular',
      comment: 'An import circle makes load order matter and hides which module is the lower layer.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'store-only-from-composition-roots',
      comment: 'Only the composition roots open storage; commands use the ports beside their aggregates in src/domain.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/store/', '^src/(context|main|server)\\.ts$'] },
      to: { path: '^src/store/' },
    },
    {
      name: 'edges-call-commands',
      comment: 'Pages, sockets and the CLI act through the commands of src/domain, not through its storage ports (each beside its aggregate: *-ports.ts, */ports.ts, sfu/placement-store.ts; the Store in ports/).',
      severity: 'error',
      from: { path: '^src/(web|realtime|cli)/' },
      to: { path: ['^src/domain/ports/', '^src/domain/[a-z-]+-ports\\.ts$', '^src/domain/[a-z-]+/ports\\.ts$', '^src/domain/sfu/placement-store\\.ts$'] },
    },
    {
      name: 'store-is-below-the-edges',
      comment: 'Storage knows the domain only.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(http|web|realtime|limits|cli)/' },
    },
    {
      name: 'realtime-below-http-and-web',
      comment: 'The hub is transport- and page-free; http and web mount it.',
      severity: 'error',
      from: { path: '^src/realtime/' },
      to: { path: '^src/(http|web|cli)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(test|contract)\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts', '.json'] },
  },
};
