// @module public/js/console/texts — a console's texts, in the language
// the server rendered the page in (its <html lang>).
import { translator } from '../lib/i18n.js';
import { dashboardConsoleTexts } from '../shared/strings/dashboard-console.js';

export const consoleLang = document.documentElement.lang || 'en';
const lookup = translator(consoleLang, dashboardConsoleTexts);

/** `ct('console.since', { time })`: the text with its `{…}` filled in. */
export function ct(key, values = {}) {
  return lookup(key).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export function clock(iso) {
  return new Date(iso).toLocaleTimeString(consoleLang, { hour: '2-digit', minute: '2-digit' });
}

/** "14:05 (12 min)": when, and for how long, as a member reads a line at a glance. */
export function sinceText(iso, now = Date.now()) {
  const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60000));
  return `${clock(iso)} (${minutes} min)`;
}
