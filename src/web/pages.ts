/**
 * @module web/pages
 * What the server-rendered pages show (their templates are in ./views/):
 * the shell that loads the meeting front end, its settings in a JSON data
 * block, which CSP does not treat as script; and the plain pages for
 * unknown (404) and ended (410) meetings and for inactive boards and queues.
 */
import type { IceServer } from '../realtime/ice.ts';
import { bundleUrl, type BundledPage } from './bundles.ts';
import type { Lang } from './strings.ts';
import { scriptJson } from './views.ts';

export interface ShellSettings {
  target: { meetingId: string } | { slug: string };
  /** The meeting's title, or the room's, board's or queue's name; null: the page's own word ("Meeting"). */
  title: string | null;
  /** The organization's name, shown beside the title. */
  organization: string | null;
  /** A consultation's clinician (its owner), shown to the others. */
  hostName?: string | null;
  /** The signed-in member opening the page (or a member's pass): their name is filled in. */
  memberName?: string;
  /** The language of that member's dashboard (its cookie): the page speaks it. */
  lang?: Lang;
  iceServers: IceServer[];
  /** RTCConfiguration.iceTransportPolicy (ICE_TRANSPORT_POLICY). */
  iceTransportPolicy: 'all' | 'relay';
  wsPath: string;
  /** The origins the organization allows to embed this page: the only parents it talks to (public/js/lib/embed-bridge.js). */
  allowedParents: string[];
  /** The signed-in member opening the page is the meeting's host (shown on the pre-join screen). */
  host?: boolean;
  /** A consultation: its knock screen speaks of the clinician. */
  consultation?: boolean;
  /**
   * The meeting's stored parameters (set by its organization through the
   * API) say `skipPrejoin`: then a `skipPrejoin=true` page joins with the
   * camera and microphone as asked. Without it (any other link: anyone can
   * write one) it joins with both off, and the visitor turns them on.
   */
  joinWithMedia?: boolean;
  /** A board's or queue's waiting page: where to wait (the call's meeting comes from the server later). */
  waiting?: { slug: string; kind: 'board' | 'queue'; closingMessage: string | null };
}

/** Data for views/shell.eta: `page` is the meeting page, or the waiting page of a queue or a board with a waiting list. */
export function shellView(settings: ShellSettings, lang: Lang, page: Extract<BundledPage, 'meeting' | 'waiting'> = 'meeting') {
  const title = [settings.title, settings.organization].filter(Boolean).join(' · ') || null;
  return { lang, title, settingsJson: scriptJson(settings), entry: bundleUrl(page) };
}

/** Data for views/plain.eta; `link` adds one button-like link under the text. */
export function plainView(lang: Lang, heading: string, text: string, link?: { href: string; text: string }) {
  return { lang, title: heading, text, link };
}
