/**
 * @module web/pages
 * What the server-rendered pages show (their templates are in ./views/):
 * the shell that loads the meeting front end, its settings in a JSON data
 * block, which CSP does not treat as script; and the plain pages for
 * unknown (404) and ended (410) meetings and for inactive boards and queues.
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
  /** The origins the organization allows to embed this page: the only parents it talks to (public/js/lib/embed-bridge.js). */
  allowedParents: string[];
  /** The signed-in member opening the page is the meeting's admin (shown on the pre-join screen). */
  host?: boolean;
  /** A consultation: its knock screen speaks of the clinician. */
  consultation?: boolean;
  /** A board's or queue's waiting page: where to wait (the call's meeting comes from the server later). */
  waiting?: { slug: string; kind: 'board' | 'queue'; closingMessage: string | null };
}

/** The meeting page's script, under the address its shell has always loaded (public/js/app.js). */
export const MEETING_ENTRY = '/static/js/app.js';
/** The waiting page of a queue or a board with a waiting list: waiting, then the call. */
export const WAITING_ENTRY = '/static/js/pages/waiting.js';

/** Data for views/shell.eta. */
export function shellView(settings: ShellSettings, lang: Lang, page = MEETING_ENTRY) {
  const [entry, ...preload] = modulesOf(page);
  return { lang, title: settings.title, settingsJson: scriptJson(settings), entry, preload };
}

/** Data for views/plain.eta. */
export function plainView(lang: Lang, heading: string, text: string) {
  return { lang, title: heading, text };
}
