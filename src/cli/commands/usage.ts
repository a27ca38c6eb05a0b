/**
 * @module cli/commands/usage
 * `foyer usage ORG [--days N]`: an organization's request totals per UTC
 * hour and day, per key, with its quotas. Shows what running servers have
 * flushed (every USAGE_FLUSH_SECONDS and at shutdown).
 */
import type { Command } from 'commander';
import { getOrganization } from '../../domain/organizations.ts';
import { operatorActor } from '../../domain/actors.ts';
import { usageReport } from '../../domain/usage.ts';
import { UsageError, type Output } from '../output.ts';
import { withContext } from '../context.ts';

export function registerUsage(program: Command, out: () => Output): void {
  program
    .command('usage')
    .description("print an organization's hourly and daily request totals")
    .argument('<org>', 'id or slug')
    .option('--days <n>', 'UTC days to show, today included', '7')
    .action((ref: string, opts: { days: string }) =>
      withContext(async (ctx) => {
        if (!/^\d+$/.test(opts.days) || Number(opts.days) < 1 || Number(opts.days) > 366) {
          throw new UsageError(`--days must be a whole number from 1 to 366; got "${opts.days}".`);
        }
        const found = await getOrganization(ctx, ref);
        const report = await usageReport(ctx, operatorActor(found), Number(opts.days));
        const quota = (n: number | null) => (n === null ? '' : ` of ${n}`);
        const lines = [
          `${found.name} (${found.slug})`,
          `this hour (${report.currentHour.start}): ${report.currentHour.requests}${quota(report.quota.hourly)} requests`,
          `today (${report.currentDay.start.slice(0, 10)}): ${report.currentDay.requests}${quota(report.quota.daily)} requests`,
          'per day:',
          ...report.days.map((d) => `  ${d.start.slice(0, 10)}\t${d.requests}`),
          'per key (this hour / today / shown days):',
          ...(report.keys.length
            ? report.keys.map((k) => `  ${k.publicKey}\t${k.currentHour}\t${k.currentDay}\t${k.total}`)
            : ['  no keys']),
        ];
        out().result(
          {
            organizationId: report.organizationId,
            slug: found.slug,
            quota: report.quota,
            currentHour: report.currentHour,
            currentDay: report.currentDay,
            days: report.days,
            keys: report.keys.map((k) => ({
              apiKey: k.publicKey,
              currentHour: k.currentHour,
              currentDay: k.currentDay,
              total: k.total,
            })),
          },
          lines,
        );
      }),
    );
}
