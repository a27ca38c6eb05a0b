/**
 * @module web/dashboard/routes/usage
 * Usage, for administrators: the organization's API requests per UTC hour
 * over the last 48 hours and per UTC day over the last 30, in total and
 * per key, the requests refused with 429, and the quotas. The server
 * renders everything a reader needs (summaries and tables); the charts
 * (uPlot, public/js/dashboard/usage-charts.js) are drawn from the same
 * figures, handed over as JSON data in the page, not as a script.
 */
import { keyStatus } from '../../../domain/keys.ts';
import { authorize } from '../../../domain/policies.ts';
import type { ApiKey } from '../../../domain/types.ts';
import { usageHistory, type UsageSeries } from '../../../domain/usage-history.ts';
import type { Lang } from '../../strings.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { requireMember } from '../session.ts';
import { dashboardLang, translator, type Translate } from '../texts.ts';
import { moment } from '../times.ts';
import { keyPrefix } from './keys.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

interface ChartKey {
  id: string;
  /** Name and first characters, for tables. */
  label: string;
  /** The name alone, or the first characters of an unnamed key: for a chart's legend, where room is short. */
  short: string;
}

/** One chart's figures: for its summary, its table (newest first) and the browser's chart (oldest first). */
function chart(id: 'hours' | 'days', series: UsageSeries, keys: Map<string, ChartKey>, lang: Lang, t: Translate) {
  const label = new Intl.DateTimeFormat(lang, id === 'hours'
    ? { timeZone: 'UTC', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }
    : { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const number = new Intl.NumberFormat(lang);
  const max = Math.max(...series.requests);
  const busiest = series.requests.indexOf(max);
  // A column and a line per key only when there is more than one: with one, it is the total.
  const perKey = series.keys.length > 1 ? series.keys : [];
  const columns = perKey.map((k) => keys.get(k.apiKeyId)?.label ?? k.apiKeyId.slice(0, 8));
  return {
    id,
    title: t(id === 'hours' ? 'usage.hoursTitle' : 'usage.daysTitle'),
    periodLabel: t(id === 'hours' ? 'usage.hour' : 'usage.day'),
    summary: t('usage.summary', {
      total: number.format(sum(series.requests)),
      max: number.format(max),
      at: label.format(series.starts[busiest]!),
      refused: number.format(sum(series.refused)),
    }),
    columns,
    rows: series.starts
      .map((start, i) => ({
        label: label.format(start),
        iso: new Date(start).toISOString(),
        requests: number.format(series.requests[i]!),
        refused: number.format(series.refused[i]!),
        keys: perKey.map((k) => number.format(k.requests[i]!)),
      }))
      .reverse(),
    data: {
      starts: series.starts.map((ms) => ms / 1000),
      requests: series.requests,
      refused: series.refused,
      keys: perKey.map((k) => ({ label: keys.get(k.apiKeyId)?.short ?? k.apiKeyId.slice(0, 8), requests: k.requests })),
    },
  };
}

export const usageRoutes: DashboardRoutes = (app, { ctx }) => {
  app.get('/usage', async (request, reply) => {
    const actor = requireMember(request);
    authorize(actor, 'usage.read');
    const lang = dashboardLang(request, reply);
    const t = translator(lang);
    const now = ctx.now();
    const history = await usageHistory(ctx, actor);
    const number = new Intl.NumberFormat(lang);
    const keyLabel = (key: ApiKey) => `${key.name || t('keys.unnamed')} (${keyPrefix(key.publicKey)})`;
    const keys = new Map(history.keys.map((key) => [key.id, { id: key.id, label: keyLabel(key), short: key.name || keyPrefix(key.publicKey) }]));
    const totalOf = (series: UsageSeries, id: string, field: 'requests' | 'refused') => sum(series.keys.find((k) => k.apiKeyId === id)?.[field] ?? []);
    const { hours, days, quota } = history;
    const empty = sum(days.requests) + sum(days.refused) === 0;
    const charts = empty ? [] : [chart('hours', hours, keys, lang, t), chart('days', days, keys, lang, t)];
    return renderPage(request, reply, 'usage', {
      empty,
      facts: {
        hour: number.format(hours.requests.at(-1)!),
        day: number.format(days.requests.at(-1)!),
        refused: number.format(sum(days.refused)),
        hourly: quota.hourly === null ? null : number.format(quota.hourly),
        daily: quota.daily === null ? null : number.format(quota.daily),
      },
      charts,
      // For the browser's charts: data, not script (the CSP allows no inline script anyway).
      chartData: JSON.stringify({ lang, labels: { total: t('usage.total'), refused: t('usage.refused'), hours: t('usage.hour'), days: t('usage.day') }, charts: Object.fromEntries(charts.map((c) => [c.id, c.data])) }).replace(/</g, '\\u003c'),
      keys: [...history.keys].reverse().map((key) => ({
        id: key.id,
        name: key.name,
        prefix: keyPrefix(key.publicKey),
        status: keyStatus(key, now),
        last48: number.format(totalOf(hours, key.id, 'requests')),
        last30: number.format(totalOf(days, key.id, 'requests')),
        refused30: number.format(totalOf(days, key.id, 'refused')),
        lastUsed: key.lastUsedAt && moment(key.lastUsedAt, lang),
      })),
    });
  });
};
