/**
 * @module web/dashboard/times
 * Moments as the dashboard shows them: rendered on the server in UTC (the
 * server cannot know the member's time zone), in a `<time>` element whose
 * `datetime` lets the browser show local time instead (public/js/dashboard/
 * local-time.js).
 */
import type { Lang } from '../strings.ts';

export interface Moment {
  iso: string;
  text: string;
}

const formats = new Map<Lang, Intl.DateTimeFormat>();

export function moment(date: Date, lang: Lang): Moment {
  let format = formats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    formats.set(lang, format);
  }
  return { iso: date.toISOString(), text: `${format.format(date)} UTC` };
}

const clocks = new Map<Lang, Intl.DateTimeFormat>();

/** The time of day only, for moments of one day shown beside a full one. */
export function clockTime(date: Date, lang: Lang): Moment {
  let format = clocks.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone: 'UTC' });
    clocks.set(lang, format);
  }
  return { iso: date.toISOString(), text: `${format.format(date)} UTC` };
}
