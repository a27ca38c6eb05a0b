// @module public/js/dashboard/usage-charts — the usage page's charts,
// drawn with uPlot (served from /static/vendor/uplot/, loaded only on this
// page). The figures come from the page itself (<script type=
// "application/json" id="usage-data">), the same the server wrote into the
// summaries and tables a screen reader uses; the charts are hidden from
// assistive technology. Periods are UTC hours and days, so the axes are
// in UTC too.

const UPLOT = '/static/vendor/uplot/uPlot.esm.js';
const UPLOT_CSS = '/static/vendor/uplot/uPlot.min.css';
const KEY_COLOURS = ['#7b4fd6', '#1f9d8f', '#d07a12', '#c23d8f', '#4d7f2a', '#6b7280'];
const HEIGHT = 240;

function addStylesheet(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}

/** Axis labels in the page's language, in UTC: hours as 14:00 with the date at midnight, days as a date. */
function axisLabels(lang, kind) {
  const hour = new Intl.DateTimeFormat(lang, { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' });
  const date = new Intl.DateTimeFormat(lang, { timeZone: 'UTC', day: 'numeric', month: 'short' });
  return (u, splits) =>
    splits.map((ts) => {
      const at = new Date(ts * 1000);
      if (kind === 'days' || at.getUTCHours() === 0) return date.format(at);
      return hour.format(at);
    });
}

function options(uPlot, chart, labels, width, lang, kind) {
  const bars = uPlot.paths.bars({ size: [0.7, 40], align: 0 });
  const number = new Intl.NumberFormat(lang);
  const shown = (u, v) => (v == null ? '—' : number.format(v));
  const period = new Intl.DateTimeFormat(lang, kind === 'hours'
    ? { timeZone: 'UTC', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }
    : { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
  const axis = { stroke: '#5d6670', grid: { stroke: '#eceff2' }, ticks: { stroke: '#dde1e6' } };
  const refused = chart.refused.some((v) => v > 0);
  const step = kind === 'hours' ? 3600 : 86400;
  return {
    width,
    height: HEIGHT,
    legend: { live: true },
    cursor: { points: { size: 6 } },
    // Half a period of room on both ends, so the first and last bars show whole.
    scales: { x: { time: true, range: (u, min, max) => [min - step / 2, max + step / 2] }, y: { range: (u, min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
    axes: [
      // Hours: a label every 6 hours at least; days: every 5 days at least.
      { ...axis, values: axisLabels(lang, kind), space: kind === 'hours' ? 56 : 48, incrs: kind === 'hours' ? [3600 * 6, 3600 * 12, 86400] : [86400 * 5, 86400 * 10] },
      { ...axis, values: (u, splits) => splits.map((v) => number.format(v)), size: 56 },
    ],
    series: [
      { label: labels[kind], value: (u, ts) => (ts == null ? '—' : `${period.format(ts * 1000)} UTC`) },
      { label: labels.total, stroke: '#2f6fe0', fill: 'rgba(47, 111, 224, 0.35)', paths: bars, points: { show: false }, value: shown },
      ...chart.keys.map((key, i) => ({ label: key.label, stroke: KEY_COLOURS[i % KEY_COLOURS.length], width: 1.5, points: { show: false }, value: shown })),
      // Refused requests only when there were any: a line along zero says nothing.
      ...(refused ? [{ label: labels.refused, stroke: '#c93a3f', width: 2, dash: [6, 4], points: { show: false }, value: shown }] : []),
    ],
  };
}

export async function drawUsageCharts(root = document) {
  const holders = [...root.querySelectorAll('[data-chart]')];
  const source = document.getElementById('usage-data');
  if (holders.length === 0 || !source) return;
  const data = JSON.parse(source.textContent ?? '{}');
  addStylesheet(UPLOT_CSS);
  const { default: uPlot } = await import(UPLOT);
  for (const holder of holders) {
    const chart = data.charts?.[holder.dataset.chart];
    if (!chart) continue;
    const series = [chart.starts, chart.requests, ...chart.keys.map((k) => k.requests)];
    if (chart.refused.some((v) => v > 0)) series.push(chart.refused);
    const width = () => Math.max(240, Math.floor(holder.clientWidth));
    const plot = new uPlot(options(uPlot, chart, data.labels, width(), data.lang, holder.dataset.chart), series, holder);
    let last = width();
    new ResizeObserver(() => {
      if (width() === last) return;
      last = width();
      plot.setSize({ width: last, height: HEIGHT });
    }).observe(holder);
  }
}
