// @module public/js/shared/strings/plain — texts of the server-rendered
// plain pages (unknown and ended meetings, inactive boards and queues, links
// of boards and queues that moved or ended), in every
// language the pages offer. The server renders them; no browser code loads them.

export const plainTexts = {
  en: {
    notFoundTitle: 'Not found',
    notFound: 'There is no meeting or room at this address. Check the link you were given.',
    goneTitle: 'This meeting has ended',
    gone: 'This meeting has been closed or deleted. It cannot be joined any more.',
    closedTitle: 'Closed',
    inactive: 'This place is not active at the moment.',
    movedTitle: 'This link has moved',
    moved: 'The waiting room or queue you are looking for has a new address.',
    movedLink: 'Go to the new address',
    endedTitle: 'This link has ended',
    ended: 'The waiting room or queue at this address no longer exists. Please ask for a new link.',
  },
  de: {
    notFoundTitle: 'Nicht gefunden',
    notFound: 'Unter dieser Adresse gibt es kein Meeting und keinen Raum. Bitte prüfen Sie den Link.',
    goneTitle: 'Dieses Meeting ist beendet',
    gone: 'Dieses Meeting wurde geschlossen oder gelöscht. Es kann nicht mehr betreten werden.',
    closedTitle: 'Geschlossen',
    inactive: 'Dieser Ort ist derzeit nicht aktiv.',
    movedTitle: 'Dieser Link ist umgezogen',
    moved: 'Das Wartezimmer bzw. die Warteschlange, die Sie suchen, hat eine neue Adresse.',
    movedLink: 'Zur neuen Adresse',
    endedTitle: 'Dieser Link ist abgelaufen',
    ended: 'Das Wartezimmer bzw. die Warteschlange unter dieser Adresse gibt es nicht mehr. Bitte fragen Sie nach einem neuen Link.',
  },
};
