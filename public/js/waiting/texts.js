// @module public/js/waiting/texts — the waiting page's texts: its own
// (shared/strings/waiting.js) over the meeting page's, in the page's language.
import { translator } from '../lib/i18n.js';
import { fill } from '../lib/page-state.js';
import { meetingTexts } from '../shared/strings/meeting.js';
import { waitingTexts } from '../shared/strings/waiting.js';

/** `wt('position', { n: 3 })` in `lang`: the text with `{n}` filled in. */
export function waitingTranslator(lang) {
  const lookup = translator(lang, meetingTexts, waitingTexts);
  return (key, values) => fill(lookup(key), values);
}
