// @module public/js/lib/storage — remembered preferences in localStorage
// (and a tab's own things in sessionStorage),
// which may be blocked (third-party iframes, some privacy settings): then
// nothing is remembered and nothing fails.

export function readStored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // blocked: the preference is simply not kept
  }
}

/** Kept for this tab only (a reload keeps it, another tab does not see it). */
export function readSession(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeSession(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // blocked: a reload then starts a new place in line
  }
}
