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

export async function withContext<T>(fn: (ctx: FoyerContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // With SMTP_URL set, invitation and reset links also go out by mail (nodemailer loaded only then: every command starts faster).
  const mailer = config.mail ? (await import('../mail/smtp-mailer.ts')).createSmtpMailer(config.mail) : undefined;
  const ctx = await createContext(config, { migrate: true, mailer });
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
  }
}
