/**
 * @module web/strings
 * The server-rendered pages' texts and language. The texts live beside the
 * browser pages' own in public/js/shared/, one source for both sides; here
 * the server picks the language (`?lang=de`) and gets a typed view of them.
 */
import { DEFAULT_LANG, LANGS } from '../../public/js/shared/langs.js';
import { plainTexts } from '../../public/js/shared/strings/plain.js';

export type Lang = (typeof LANGS)[number];

export function pickLang(value: unknown): Lang {
  if (typeof value !== 'string') return DEFAULT_LANG;
  const lower = value.toLowerCase();
  return LANGS.find((lang) => lower.startsWith(lang)) ?? DEFAULT_LANG;
}

/** Typed against the default language, so a language missing a text does not compile. */
export const pageStrings: Record<Lang, (typeof plainTexts)[typeof DEFAULT_LANG]> = plainTexts;
