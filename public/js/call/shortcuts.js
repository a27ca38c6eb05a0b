// @module public/js/call/shortcuts — keyboard shortcuts of the call, as in
// the calls people know: Ctrl+D (⌘D on a Mac) the microphone, Ctrl+E (⌘E)
// the camera. Listed in Settings and on the buttons (aria-keyshortcuts).

/** [key, action name, text key] */
export const SHORTCUTS = [
  ['d', 'toggleMic', 'shortcutMic'],
  ['e', 'toggleCamera', 'shortcutCam'],
];

export function isMac() {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** "Ctrl+D" or "⌘D". */
export function shortcutLabel(key) {
  return isMac() ? `⌘${key.toUpperCase()}` : `Ctrl+${key.toUpperCase()}`;
}

/** Listens while the call screen is up; returns the function that stops listening. */
export function listenForShortcuts(c) {
  const onKey = (event) => {
    if (c.state.phase !== 'call' || event.altKey || event.shiftKey || !(isMac() ? event.metaKey : event.ctrlKey)) return;
    const found = SHORTCUTS.find(([key]) => event.key.toLowerCase() === key);
    if (!found) return;
    event.preventDefault();
    void c.actions[found[1]]();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
