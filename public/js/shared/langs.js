// @module public/js/shared/langs — the languages every page is offered in.
// Each text table under strings/ has exactly these, with the same keys.

export const LANGS = /** @type {const} */ (['en', 'de']);

/** Where a text is missing, and for anyone asking for a language not listed. */
export const DEFAULT_LANG = 'en';
