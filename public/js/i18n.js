// @module public/js/i18n — the call's texts in English and German (?lang=de).
const strings = {
  en: {
    joinTitle: 'Ready to join?',
    yourName: 'Your name',
    namePlaceholder: 'Name shown to others',
    camera: 'Camera',
    microphone: 'Microphone',
    join: 'Join',
    mute: 'Mute',
    unmute: 'Unmute',
    cameraOff: 'Stop camera',
    cameraOn: 'Start camera',
    share: 'Share screen',
    stopShare: 'Stop sharing',
    participants: 'Participants',
    leave: 'Leave',
    you: 'you',
    left: 'You left the meeting.',
    rejoin: 'Rejoin',
    ended: 'This meeting has ended.',
    notFound: 'There is no such meeting or room.',
    notJoinable: 'This place cannot be joined right now.',
    reconnecting: 'Connection lost. Reconnecting…',
    failed: 'The connection to the meeting was closed and cannot be restored automatically.',
    failedCode: 'Reason code:',
    tryAgain: 'Try again',
    noDevices: 'No camera or microphone available; you can still join and listen.',
    deviceError: 'Camera or microphone unavailable: ',
    enableSound: 'Click to enable sound',
    alone: 'Waiting for others to join…',
    muted: 'muted',
    camOff: 'camera off',
    sharing: 'sharing screen',
    nameRequired: 'Please enter your name.',
    meeting: 'Meeting',
  },
  de: {
    joinTitle: 'Bereit zum Beitreten?',
    yourName: 'Ihr Name',
    namePlaceholder: 'Name, den andere sehen',
    camera: 'Kamera',
    microphone: 'Mikrofon',
    join: 'Beitreten',
    mute: 'Stumm',
    unmute: 'Ton an',
    cameraOff: 'Kamera aus',
    cameraOn: 'Kamera an',
    share: 'Bildschirm teilen',
    stopShare: 'Teilen beenden',
    participants: 'Teilnehmende',
    leave: 'Verlassen',
    you: 'Sie',
    left: 'Sie haben das Meeting verlassen.',
    rejoin: 'Wieder beitreten',
    ended: 'Dieses Meeting ist beendet.',
    notFound: 'Dieses Meeting oder diesen Raum gibt es nicht.',
    notJoinable: 'Dieser Ort kann gerade nicht betreten werden.',
    reconnecting: 'Verbindung verloren. Neuer Versuch…',
    failed: 'Die Verbindung zum Meeting wurde beendet und kann nicht automatisch wiederhergestellt werden.',
    failedCode: 'Fehlercode:',
    tryAgain: 'Erneut versuchen',
    noDevices: 'Keine Kamera und kein Mikrofon verfügbar; Sie können trotzdem beitreten und zuhören.',
    deviceError: 'Kamera oder Mikrofon nicht verfügbar: ',
    enableSound: 'Klicken, um den Ton einzuschalten',
    alone: 'Warten auf weitere Teilnehmende…',
    muted: 'stumm',
    camOff: 'Kamera aus',
    sharing: 'teilt Bildschirm',
    nameRequired: 'Bitte geben Sie Ihren Namen ein.',
    meeting: 'Meeting',
  },
};

export function pickLang(requested) {
  const candidates = [requested, ...(navigator.languages || [])].filter(Boolean).map((l) => String(l).toLowerCase());
  for (const c of candidates) {
    const base = c.split('-')[0];
    if (strings[base]) return base;
  }
  return 'en';
}

export function translator(lang) {
  const table = strings[lang] || strings.en;
  return (key) => table[key] ?? strings.en[key] ?? key;
}
