// @module public/js/shared/strings/dashboard-rooms — texts of the
// dashboard's rooms section. `{name}` marks a value filled in.

export const dashboardRoomsTexts = {
  en: {
    roomsTitle: 'Rooms',
    roomsLead: 'Permanent meeting places of your organization, each at its own address. Anyone with the link can enter.',
    newRoom: 'New room',
    newRoomLead: 'A room is always there: share its link once and use it again and again.',
    allRooms: 'All rooms',
    noRooms: 'No rooms yet. Create one to get a permanent link.',
    roomCreated: 'The room “{slug}” is created. Share its link:',
    roomTitle: 'Title',
    roomTitleHint: 'Optional; shown to the people entering the room.',
    createRoom: 'Create room',
  },
  de: {
    roomsTitle: 'Räume',
    roomsLead: 'Dauerhafte Treffpunkte Ihrer Organisation, jeder unter seiner eigenen Adresse. Wer den Link hat, kann eintreten.',
    newRoom: 'Neuer Raum',
    newRoomLead: 'Ein Raum bleibt bestehen: Geben Sie seinen Link einmal weiter und nutzen Sie ihn immer wieder.',
    allRooms: 'Alle Räume',
    noRooms: 'Noch keine Räume. Legen Sie einen an, um einen dauerhaften Link zu erhalten.',
    roomCreated: 'Der Raum „{slug}“ ist angelegt. Geben Sie seinen Link weiter:',
    roomTitle: 'Titel',
    roomTitleHint: 'Optional; wird den Eintretenden angezeigt.',
    createRoom: 'Raum anlegen',
  },
};
