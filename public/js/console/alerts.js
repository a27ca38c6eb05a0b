// @module public/js/console/alerts — telling a member whose console is in
// the background that a client arrived: a short tone and, with their
// permission, a browser notification. A flood of arrivals makes one
// alert per interval, not one per client.

const MIN_INTERVAL_MS = 15_000;

/** A console's alerts, worded with `ct` (console/texts.js). */
export function createAlerts(ct) {
  let audio = null;
  let lastAlertAt = -Infinity;
  let pending = [];
  let pendingTimer = null;

  function tone() {
    if (!audio || audio.state !== 'running') return;
    const now = audio.currentTime;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.setValueAtTime(660, now);
    osc.frequency.setValueAtTime(880, now + 0.15);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.4);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.45);
  }

  function notify(names) {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const body = names.length === 1 ? ct('console.arrival', { name: names[0] }) : ct('console.arrivals', { n: names.length });
    // One tag: a newer alert replaces the one before instead of piling up.
    const n = new Notification(document.title, { body, tag: 'foyer-arrivals' });
    n.addEventListener('click', () => {
      window.focus();
      n.close();
    });
  }

  function fire() {
    pendingTimer = null;
    const names = pending;
    pending = [];
    if (!names.length || !document.hidden) return;
    lastAlertAt = performance.now();
    tone();
    notify(names);
  }

  return {
    /** Browsers let a page make sound only after a gesture: the first click or key on the page unlocks it. */
    unlockSoundOnGesture() {
      const unlock = () => {
        try {
          audio ??= new AudioContext();
          void audio.resume();
        } catch {
          // no Web Audio: notifications only
        }
      };
      document.addEventListener('pointerdown', unlock, { once: true });
      document.addEventListener('keydown', unlock, { once: true });
    },
    /** Clients `names` just arrived: alert now, or once the interval since the last alert is over (with everyone who came meanwhile). */
    arrived(names) {
      if (!document.hidden || names.length === 0) return;
      pending.push(...names);
      if (pendingTimer) return;
      const wait = Math.max(0, lastAlertAt + MIN_INTERVAL_MS - performance.now());
      pendingTimer = setTimeout(fire, wait);
    },
  };
}

/** Asks for permission to notify; returns the browser's answer. */
export async function askToNotify() {
  if (typeof Notification === 'undefined') return 'denied';
  if (Notification.permission !== 'default') return Notification.permission;
  return Notification.requestPermission();
}

export function notifyPermission() {
  return typeof Notification === 'undefined' ? 'denied' : Notification.permission;
}
