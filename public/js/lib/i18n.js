// @module public/js/lib/i18n — choosing a page's language and looking its
// texts up. Each page passes its own tables (public/js/shared/strings/),
// so it loads only the texts it shows.
import { DEFAULT_LANG, LANGS } from '../shared/langs.js';

/** `?lang=` first, then the browser's preferences; the first offered language wins. */
export function pickLang(requested) {
  const candidates = [requested, ...(navigator.languages || [])].filter(Boolean).map((l) => String(l).toLowerCase());
  for (const c of candidates) {
    const base = c.split('-')[0];
    if (LANGS.includes(base)) return base;
  }
  return DEFAULT_LANG;
}

/**
 * `t(key)` for `lang` over one or more tables of the form `{ en: {...}, de: {...} }`
 * (later tables win on a shared key). A text missing in `lang` falls back
 * to the default language, then to the key itself, so a gap shows up
 * rather than breaking the page.
 */
export function translator(lang, ...tables) {
  const merged = Object.assign({}, ...tables.map((table) => table[lang]));
  const fallback = Object.assign({}, ...tables.map((table) => table[DEFAULT_LANG]));
  return (key) => merged[key] ?? fallback[key] ?? key;
}
