// @module public/js/console/texts — a console's texts, in the language
// the server rendered the page in (its <html lang>).
import { translator } from '../lib/i18n.js';
import { fill } from '../lib/page-state.js';
import { dashboardConsoleTexts } from '../shared/strings/dashboard-console.js';

/** `ct('console.since', { time })` and the times a console shows, in `lang`. */
export function consoleTexts(lang) {
  const lookup = translator(lang, dashboardConsoleTexts);
  const clock = (iso) => new Date(iso).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
  return {
    ct: (key, values) => fill(lookup(key), values),
    clock,
    /** "14:05 (12 min)": when, and for how long, as a member reads a line at a glance. */
    sinceText(iso, now = Date.now()) {
      const minutes = Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60000));
      return `${clock(iso)} (${minutes} min)`;
    },
  };
}
