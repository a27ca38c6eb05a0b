// @module public/js/shared/call-extras — what the call carries besides
// media and presence (chat, raised hands, reactions), with the limits the
// server keeps and the pages respect: one list for both sides
// (docs/signalling.md, "Chat, hands and reactions").

/** The features a server that relays them lists in `welcome`. */
export const CALL_FEATURES = Object.freeze(['chat', 'hand', 'reaction']);

/** The longest chat message, in characters (after trimming). */
export const MAX_CHAT_CHARS = 1000;

/** Chat messages per participant: this many at once, then one more every `everyMs`. */
export const CHAT_RATE = Object.freeze({ burst: 5, everyMs: 1000 });

/** Reactions per participant, likewise. */
export const REACTION_RATE = Object.freeze({ burst: 5, everyMs: 1000 });

/** The reactions offered, in order; the server relays only these. */
export const REACTIONS = Object.freeze(['👍', '👏', '❤️', '😂', '😮']);
