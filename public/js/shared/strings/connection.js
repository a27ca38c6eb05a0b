// @module public/js/shared/strings/connection — texts of the call's
// connections: each remote participant's state on their tile and in the
// participant list (lib/peer-health.js), the hints after repeated failure,
// and the meeting connection (signalling) lost and back. Plain data, like
// every strings table.

export const connectionTexts = {
  en: {
    peerConnecting: 'Connecting…',
    peerReconnecting: 'Reconnecting…',
    peerFailed: 'Can’t reach {name} — trying again',
    peerTryAgain: 'Try again',
    listConnecting: 'connecting',
    listReconnecting: 'reconnecting',
    listFailed: 'can’t connect',
    hintTurn:
      'Still no connection. The service’s relay server (TURN) is not set up or refused the connection, so calls cannot get through firewalls. Please tell whoever runs this service.',
    hintNetwork:
      'Still no connection. A network may be blocking video calls (a company firewall or a VPN, on your side or theirs). Try another network, such as your phone’s hotspot.',
    signallingLost: 'Connection to the meeting lost. Reconnecting… Video with people already connected goes on meanwhile.',
    backWith: 'Connected again. Still here: {names}.',
    backAlone: 'Connected again. Nobody else is back yet.',
  },
  de: {
    peerConnecting: 'Verbindung wird aufgebaut…',
    peerReconnecting: 'Verbindung wird wiederhergestellt…',
    peerFailed: '{name} ist nicht erreichbar – neuer Versuch läuft',
    peerTryAgain: 'Erneut versuchen',
    listConnecting: 'verbindet',
    listReconnecting: 'verbindet neu',
    listFailed: 'nicht erreichbar',
    hintTurn:
      'Weiterhin keine Verbindung. Der Relay-Server des Dienstes (TURN) ist nicht eingerichtet oder hat die Verbindung abgelehnt, daher kommen Anrufe nicht durch Firewalls. Bitte wenden Sie sich an den Betreiber dieses Dienstes.',
    hintNetwork:
      'Weiterhin keine Verbindung. Ein Netzwerk blockiert möglicherweise Videoanrufe (eine Firmen-Firewall oder ein VPN, bei Ihnen oder beim Gegenüber). Versuchen Sie ein anderes Netz, etwa den Hotspot Ihres Telefons.',
    signallingLost: 'Verbindung zum Meeting unterbrochen. Neuer Versuch… Bestehende Videoverbindungen laufen so lange weiter.',
    backWith: 'Wieder verbunden. Noch da: {names}.',
    backAlone: 'Wieder verbunden. Sonst ist noch niemand zurück.',
  },
};
