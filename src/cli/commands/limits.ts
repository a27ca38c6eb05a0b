/**
 * @module cli/commands/limits
 * `foyer org limits ORG [--hourly N|none] [--daily N|none] [--clear]`:
 * shows or sets an organization's request quotas. Registered under the
 * existing `org` command, so call it after `registerOrg`.
 */
import type { Command } from 'commander';
import { getOrganization } from '../../domain/organizations.ts';
import { operatorActor } from '../../domain/actors.ts';
import type { OrganizationQuota } from '../../domain/types.ts';
import { getOrganizationQuota, MAX_QUOTA, setOrganizationQuota } from '../../domain/usage.ts';
import { UsageError, type Output } from '../output.ts';
import { withContext } from '../context.ts';

/**
 * `none` (or `off`) removes that quota; anything else must be a whole number
 * in the domain's range. The range is checked here too so that every bad
 * value is bad usage (exit 2), not a refused operation (exit 1).
 */
function quotaValue(flag: string, text: string | undefined): number | null | undefined {
  if (text === undefined) return undefined;
  const t = text.trim().toLowerCase();
  if (t === 'none' || t === 'off') return null;
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  if (!(n >= 1 && n <= MAX_QUOTA)) {
    throw new UsageError(`${flag} must be a whole number from 1 to ${MAX_QUOTA}, or "none" to remove it; got "${text}".`);
  }
  return n;
}

function describe(quota: OrganizationQuota): string {
  const part = (n: number | null, unit: string) => (n === null ? `no ${unit} quota` : `${n} requests per ${unit}`);
  return `${part(quota.hourly, 'hour')}, ${part(quota.daily, 'day')} (UTC)`;
}

export function registerLimits(program: Command, out: () => Output): void {
  const org = program.commands.find((c) => c.name() === 'org');
  if (!org) throw new Error('registerLimits must run after registerOrg.');

  org
    .command('limits')
    .description("show or set an organization's hourly and daily request quotas (429 quota_exceeded when spent)")
    .argument('<org>', 'id or slug')
    .option('--hourly <n>', 'requests per UTC hour, or "none"')
    .option('--daily <n>', 'requests per UTC day, or "none"')
    .option('--clear', 'remove both quotas')
    .action((ref: string, opts: { hourly?: string; daily?: string; clear?: boolean }) =>
      withContext(async (ctx) => {
        if (opts.clear && (opts.hourly !== undefined || opts.daily !== undefined)) {
          throw new UsageError('--clear cannot be combined with --hourly or --daily.');
        }
        const hourly = opts.clear ? null : quotaValue('--hourly', opts.hourly);
        const daily = opts.clear ? null : quotaValue('--daily', opts.daily);
        const found = await getOrganization(ctx, ref);
        const quota =
          hourly === undefined && daily === undefined
            ? await getOrganizationQuota(ctx, operatorActor(found))
            : await setOrganizationQuota(ctx, operatorActor(found), { hourly, daily });
        out().result(
          { organizationId: found.id, slug: found.slug, hourly: quota.hourly, daily: quota.daily },
          `${found.slug}: ${describe(quota)}`,
        );
      }),
    );
}
