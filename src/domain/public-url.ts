/**
 * @module domain/public-url
 * Where the service is reached, as the running server knows it. Links
 * that leave Foyer outside a request (an invitation or reset link the
 * operator's CLI prints or mails) must lead to the server, not to
 * whatever PUBLIC_URL the shell running the CLI happens to have: so the
 * server writes its PUBLIC_URL to the database when it starts, and the
 * CLI builds links from that. Until a server has started on the database,
 * the CLI's own PUBLIC_URL (or its default) is all there is.
 */
import type { DomainContext } from './context.ts';
import type { ServiceSettingPorts } from './service-setting-ports.ts';

const SETTING = 'public_url';

/** The server starts: from now on links made anywhere on this database lead to `ctx.publicUrl`. */
export async function recordPublicUrl(ctx: DomainContext<ServiceSettingPorts>): Promise<void> {
  await ctx.store.writeServiceSetting(SETTING, ctx.publicUrl, ctx.now());
}

/** The public URL the server last started with, if any has. */
export async function serverPublicUrl(ctx: DomainContext<ServiceSettingPorts>): Promise<string | undefined> {
  return ctx.store.readServiceSetting(SETTING);
}
