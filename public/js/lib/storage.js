// @module public/js/lib/storage — remembered preferences in localStorage,
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
