/**
 * @module cli/session
 * Opens what a CLI command needs: configuration, the store (with pending
 * migrations applied, so the CLI works on a fresh database before the server
 * ever ran) and a domain context. Closes it afterwards, always.
 */
import { loadConfig } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import { openStore } from '../store/open.ts';

export async function withContext<T>(
  fn: (ctx: DomainContext) => Promise<T>,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<T> {
  const config = loadConfig();
  const store = await openStore(config.databaseUrl);
  try {
    if (migrate) await store.migrate();
    return await fn({
      store,
      now: () => new Date(),
      publicUrl: config.publicUrl,
      idleCloseSeconds: config.idleCloseSeconds,
      secretPepper: config.secretPepper,
    });
  } finally {
    await store.close();
  }
}
