// @module public/js/call/speaking — who is speaking: a ring on everyone
// speaking now, and the active speaker (whom the speaker view puts on the
// stage). Its one input is `feedLevels(c, levels)`: audio levels by
// participant id ('self' for this page), 0 to 1, a few times a second. The
// mesh feeds it from its receivers (call/index.js); an SFU can feed it
// from its own levels, or name the speaker with `setActiveSpeaker`.

const SPEAKING = 0.03;
/** How long a new voice must lead before the stage switches to it. */
const SWITCH_MS = 800;
/** How long the stage stays with a speaker who went quiet. */
const HOLD_MS = 2500;

function speech(c) {
  c.speech ??= { smooth: new Map(), speaker: null, lead: null, leadSince: 0, heardAt: 0 };
  return c.speech;
}

/** Levels in: rings and the active speaker out. */
export function feedLevels(c, levels, now = performance.now()) {
  const s = speech(c);
  for (const [id, level] of Object.entries(levels)) {
    // Quick to rise, slow to fall: a voice's pauses between words keep the ring.
    s.smooth.set(id, Math.max(level, (s.smooth.get(id) ?? 0) * 0.7));
  }
  for (const id of [...s.smooth.keys()]) if (!(id in levels)) s.smooth.delete(id);
  for (const [id, tile] of c.tiles) tile.node.classList.toggle('speaking', (s.smooth.get(id) ?? 0) > SPEAKING);
  let loudest = null;
  for (const [id, level] of s.smooth) if (id !== 'self' && level > SPEAKING && (!loudest || level > s.smooth.get(loudest))) loudest = id;
  if (s.speaker && (s.smooth.get(s.speaker) ?? 0) > SPEAKING) s.heardAt = now;
  if (!loudest || loudest === s.speaker) {
    s.lead = null;
    return;
  }
  if (s.lead !== loudest) {
    s.lead = loudest;
    s.leadSince = now;
  }
  const speakerQuiet = !s.speaker || now - s.heardAt > HOLD_MS;
  if (speakerQuiet || now - s.leadSince > SWITCH_MS) setActiveSpeaker(c, loudest, now);
}

/** The active speaker is `id` (from levels, or from an SFU that knows). */
export function setActiveSpeaker(c, id, now = performance.now()) {
  const s = speech(c);
  if (s.speaker === id) return;
  s.speaker = id;
  s.heardAt = now;
  s.lead = null;
  c.relayout();
}

export function activeSpeaker(c) {
  return c.speech?.speaker ?? null;
}
