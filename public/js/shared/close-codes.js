// @module public/js/shared/close-codes — the signalling socket's close codes,
// one list for the server that sends them and the pages that act on them
// (docs/signalling.md describes each). 4000-4999 are the application's own.

export const CloseCode = Object.freeze({
  normal: 1000,
  goingAway: 1001,
  tooBig: 1009,
  badMessage: 4400,
  signedOut: 4401,
  notJoinable: 4403,
  notFound: 4404,
  joinTimeout: 4408,
  replaced: 4409,
  gone: 4410,
  tooManyMessages: 4429,
  removed: 4460,
  turnedAway: 4461,
  rejoin: 4503,
});

/** What a browser reports for a socket that dropped without a close frame; no server sends it. */
export const ABNORMAL_CLOSURE = 1006;

/**
 * The closes after which a page comes back: the server went away, the
 * network dropped, or the instance was taken for dead. Every other close is
 * a refusal that the same page would only run into again.
 */
export const RECONNECT_CODES = Object.freeze([CloseCode.goingAway, ABNORMAL_CLOSURE, CloseCode.rejoin]);
