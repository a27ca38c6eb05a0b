// @module public/js/shared/strings/dashboard-embedding — texts of the
// dashboard's embedding section (administrators only): the allowed
// origins and how to embed a meeting. `{name}` marks a value filled in.

export const dashboardEmbeddingTexts = {
  en: {
    navEmbedding: 'Embedding',
    'embedding.title': 'Embedding',
    'embedding.lead': 'Put meetings, waiting rooms and consoles inside your own application. Only the websites you list here may embed them, and only they receive the events the embedded page sends and may send it commands.',
    'embedding.origins': 'Allowed origins',
    'embedding.originsHint': 'One per line, each a scheme and host without a path, for example https://portal.example.org or https://app.example.org:8443. http only for localhost.',
    'embedding.emptyNote': 'With no origins listed, the embedded pages send no events, and whether they may be framed at all is the operator’s setting.',
    'embedding.saved': 'The allowed origins are saved. Pages opened from now on use them.',
    'embedding.lineError': '“{line}” is not an origin: use a scheme and host only, such as https://portal.example.org (https, or http on localhost).',
    'embedding.tooMany': 'At most 50 origins.',
    'embedding.howTitle': 'Embed a meeting',
    'embedding.how': 'Load Foyer’s web component on a page of an allowed origin and give it the redirect URL the API answered:',
    'embedding.docs': 'The component relays the page’s events (joined, participant joined and left, ended, …) as DOM events and offers commands such as mute() and leave(). See docs/embedding.md.',
  },
  de: {
    navEmbedding: 'Einbettung',
    'embedding.title': 'Einbettung',
    'embedding.lead': 'Binden Sie Meetings, Warteräume und Konsolen in Ihre eigene Anwendung ein. Nur die hier aufgeführten Websites dürfen sie einbetten, und nur sie erhalten die Ereignisse der eingebetteten Seite und dürfen ihr Befehle senden.',
    'embedding.origins': 'Erlaubte Origins',
    'embedding.originsHint': 'Einer pro Zeile, jeweils Schema und Host ohne Pfad, zum Beispiel https://portal.example.org oder https://app.example.org:8443. http nur für localhost.',
    'embedding.emptyNote': 'Ohne erlaubte Origins senden die eingebetteten Seiten keine Ereignisse, und ob sie überhaupt eingebettet werden dürfen, bestimmt der Betreiber.',
    'embedding.saved': 'Die erlaubten Origins sind gespeichert. Ab jetzt geöffnete Seiten verwenden sie.',
    'embedding.lineError': '„{line}“ ist kein Origin: Verwenden Sie nur Schema und Host, etwa https://portal.example.org (https, oder http für localhost).',
    'embedding.tooMany': 'Höchstens 50 Origins.',
    'embedding.howTitle': 'Ein Meeting einbetten',
    'embedding.how': 'Laden Sie Foyers Web-Komponente auf einer Seite eines erlaubten Origins und übergeben Sie ihr die Weiterleitungs-URL aus der API:',
    'embedding.docs': 'Die Komponente gibt die Ereignisse der Seite (beigetreten, Teilnehmer beigetreten und gegangen, beendet, …) als DOM-Ereignisse weiter und bietet Befehle wie mute() und leave(). Siehe docs/embedding.md.',
  },
};
