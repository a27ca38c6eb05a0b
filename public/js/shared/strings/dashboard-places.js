// @module public/js/shared/strings/dashboard-places — words the dashboard's
// meetings, rooms, boards and queues sections share: links and copying,
// slugs, lists in pages, states. `{name}` marks a value filled in.

export const dashboardPlacesTexts = {
  en: {
    link: 'Link',
    copyLabel: 'Copy {what}',
    created: 'Created',
    state: 'State',
    actions: 'Actions',
    editNamed: 'Edit {name}',
    slug: 'Address (slug)',
    slugHint: '3 to 64 characters: lowercase letters, digits and single hyphens. Rooms, boards and queues share these addresses.',
    pages: 'Pages',
    olderPage: 'Older',
    newestPage: 'Newest',
  },
  de: {
    link: 'Link',
    copyLabel: '{what} kopieren',
    created: 'Angelegt',
    state: 'Zustand',
    actions: 'Aktionen',
    editNamed: '{name} bearbeiten',
    slug: 'Adresse (Slug)',
    slugHint: '3 bis 64 Zeichen: Kleinbuchstaben, Ziffern und einzelne Bindestriche. Räume, Boards und Warteschlangen teilen sich diese Adressen.',
    pages: 'Seiten',
    olderPage: 'Ältere',
    newestPage: 'Neueste',
  },
};
