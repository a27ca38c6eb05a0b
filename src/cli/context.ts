/**
 * @module cli/context
 * What a CLI command runs in: the configuration, a domain context over the
 * configured database (pending migrations applied first, so the CLI works
 * on a fresh database before the server ever ran), closed afterwards,
 * always. The CLI is the operator: it acts for whichever organization a
 * command names (see `operatorActor`).
 */
import { loadConfig } from '../config.ts';
import { createContext, type FoyerContext } from '../context.ts';

export async function withContext<T>(fn: (ctx: FoyerContext) => Promise<T>): Promise<T> {
  const ctx = await createContext(loadConfig(), { migrate: true });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
