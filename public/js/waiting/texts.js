// @module public/js/waiting/texts — the waiting page's texts: its own
// (shared/strings/waiting.js) over the meeting page's, in the page's language.
import { translator } from '../lib/i18n.js';
import { meetingTexts } from '../shared/strings/meeting.js';
import { waitingTexts } from '../shared/strings/waiting.js';
import { lang } from '../meeting/state.js';

const lookup = translator(lang, meetingTexts, waitingTexts);

/** `wt('position', { n: 3 })`: the text with `{n}` filled in. */
export function wt(key, values = {}) {
  return lookup(key).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
