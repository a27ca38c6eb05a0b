/**
 * @module web/pages
 * What the server-rendered pages show (their templates are in ./views/):
 * the shell that loads the meeting front end, its settings in a JSON data
 * block, which CSP does not treat as script; and the plain pages for
 * unknown (404) and ended (410) meetings and for waiting places.
 */
import type { IceServer } from '../realtime/ice.ts';
import { modulesOf } from './modules.ts';
import type { Lang } from './strings.ts';
import { scriptJson } from './views.ts';

export interface ShellSettings {
  target: { meetingId: string } | { slug: string };
  title: string | null;
  iceServers: IceServer[];
  wsPath: string;
}

/** The meeting page's script, under the address its shell has always loaded (public/js/app.js). */
const MEETING_ENTRY = '/static/js/app.js';

/** Data for views/shell.eta. */
export function shellView(settings: ShellSettings, lang: Lang) {
  const [entry, ...preload] = modulesOf(MEETING_ENTRY);
  return { lang, title: settings.title, settingsJson: scriptJson(settings), entry, preload };
}

/** Data for views/plain.eta. */
export function plainView(lang: Lang, heading: string, text: string) {
  return { lang, title: heading, text };
}
