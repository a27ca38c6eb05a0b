/**
 * @module web/strings
 * Texts of the server-rendered plain pages, in the front end's languages
 * (English and German; `?lang=de`). The call's own texts are in
 * public/js/i18n.js.
 */
export type Lang = 'en' | 'de';

export function pickLang(value: unknown): Lang {
  return typeof value === 'string' && value.toLowerCase().startsWith('de') ? 'de' : 'en';
}

export const pageStrings = {
  en: {
    notFoundTitle: 'Not found',
    notFound: 'There is no meeting or room at this address. Check the link you were given.',
    goneTitle: 'This meeting has ended',
    gone: 'This meeting has been closed or deleted. It cannot be joined any more.',
    waitingTitle: 'Waiting place',
    waiting: 'This waiting place has a waiting list, which this version of Foyer does not serve yet.',
    inactive: 'This place is not active at the moment.',
  },
  de: {
    notFoundTitle: 'Nicht gefunden',
    notFound: 'Unter dieser Adresse gibt es kein Meeting und keinen Raum. Bitte prüfen Sie den Link.',
    goneTitle: 'Dieses Meeting ist beendet',
    gone: 'Dieses Meeting wurde geschlossen oder gelöscht. Es kann nicht mehr betreten werden.',
    waitingTitle: 'Warteraum',
    waiting: 'Dieser Warteraum hat eine Warteliste, die diese Foyer-Version noch nicht anbietet.',
    inactive: 'Dieser Ort ist derzeit nicht aktiv.',
  },
} as const;
