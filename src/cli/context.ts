/**
 * @module cli/context
 * What a CLI command runs in: the configuration, a domain context over the
 * configured database (pending migrations applied first, so the CLI works
 * on a fresh database before the server ever ran), closed afterwards,
 * always. The CLI is the operator: it acts for whichever organization a
 * command names (see `operatorActor`). With SMTP_URL set the context has
 * a mailer, so member links also go out by mail.
 */
import { loadConfig } from '../config.ts';
import { createContext, type FoyerContext } from '../context.ts';
import { serverPublicUrl } from '../domain/public-url.ts';

/** `makesLinks`: the command prints links, so where they lead is worth a word on stderr when in doubt. */
export async function withContext<T>(fn: (ctx: FoyerContext) => Promise<T>, options: { makesLinks?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  // With SMTP_URL set, invitation and reset links also go out by mail (nodemailer loaded only then: every command starts faster).
  const mailer = config.mail ? (await import('../mail/smtp-mailer.ts')).createSmtpMailer(config.mail) : undefined;
  const opened = await createContext(config, { migrate: true, mailer });
  const base = await linkBase(opened, process.env.PUBLIC_URL?.trim());
  if (options.makesLinks && base.note) console.error(base.note);
  const ctx: FoyerContext = { ...opened, publicUrl: base.url };
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}

/**
 * Where the links the CLI prints lead: the PUBLIC_URL the server last
 * started with on this database (domain/public-url.ts), never this shell's;
 * a different PUBLIC_URL here is pointed out. Before any server started,
 * the CLI's own setting (or its default) is all there is, and it says so.
 */
async function linkBase(ctx: FoyerContext, ownSetting: string | undefined): Promise<{ url: string; note?: string }> {
  const server = await serverPublicUrl(ctx);
  if (server) {
    const differs = ownSetting && ownSetting.replace(/\/+$/, '') !== server;
    return { url: server, note: differs ? `foyer: links use the server's PUBLIC_URL ${server} (recorded when it started), not this shell's ${ownSetting}.` : undefined };
  }
  return {
    url: ctx.publicUrl,
    note: ownSetting ? undefined : `foyer: no Foyer server has started on this database yet: links use ${ctx.publicUrl} (start the server first, or set PUBLIC_URL).`,
  };
}
