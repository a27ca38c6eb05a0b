// @module public/js/lib/peer-health — whether one peer connection carries
// media, and what to do when it does not: the states a page shows
// (connecting, connected, reconnecting, failed), the remedies in order (an
// ICE restart, then new connections with backoff), a "Try again" that
// starts one at once, and a hint at the likely cause after repeated failure.
//
// It knows one connection at a time and nothing of who is at the other end,
// so the mesh keeps one per remote participant and an SFU connection can
// keep one for itself: the caller says what "restart ICE" and "rebuild"
// mean (or that the other side does them) and hands over each new
// RTCPeerConnection with attach().
//
// ICE states alone are not trusted: with a refused TURN credential a
// connection can sit in `new` or `checking` for minutes without reaching
// `failed`. What counts is media carried (see mediaCarried), within
// MEDIA_BOUND_MS of the attempt's start; docs/video.md says why that bound.

/** How long an attempt may take to carry media before it counts as failed. */
export const MEDIA_BOUND_MS = 8000;
/** Waits before each rebuild after the first: 1 s, doubling, at most 30 s (each ±20 %). */
export const REBUILD_FIRST_MS = 1000;
export const REBUILD_MAX_MS = 30_000;
/** From this attempt on, a failed connection comes with a hint at the cause (the initial try and the ICE restart have both failed). */
export const HINT_FROM_ATTEMPT = 3;
const POLL_MS = 400;

/** TURN error codes that mean the relay refused us (RFC 8656: 401 wrong or expired credential, 403, 437, 441, 486 quota, 508 capacity). */
const REFUSED = new Set([401, 403, 437, 438, 441, 486, 508]);

/** True when the configuration names a relay at all. */
export function hasTurn(iceServers) {
  return (iceServers ?? []).some((s) => [s.urls].flat().some((u) => /^turns?:/.test(u)));
}

/**
 * The connection has carried media: DTLS is up over the selected path (so
 * packets went both ways over it) and, when the other side says it sends
 * something, RTP has arrived. Someone with neither camera nor microphone
 * sends nothing, and their connection counts from the DTLS handshake.
 */
export async function mediaCarried(pc, expectsMedia) {
  if (pc.connectionState !== 'connected') return false;
  if (!expectsMedia()) return true;
  const stats = await pc.getStats();
  let packets = 0;
  stats.forEach((s) => {
    if (s.type === 'inbound-rtp') packets += s.packetsReceived || 0;
  });
  return packets > 0;
}

export class PeerHealth {
  /**
   * @param hooks.onState({ state, attempt, hint? }) on every change
   * @param hooks.carried(pc) → Promise<boolean>: this connection carries media
   * @param hooks.restartIce() the first remedy; null when the other side does it
   * @param hooks.rebuild() a new connection (handed back through attach); null when the other side does it
   * @param hooks.retry() what "Try again" does (default: rebuild)
   * @param options.turn whether a TURN server is configured (for the hint)
   */
  constructor(hooks, { boundMs = MEDIA_BOUND_MS, turn = false } = {}) {
    this.hooks = hooks;
    this.boundMs = boundMs;
    this.turn = turn;
    this.state = null;
    this.attempt = 0;
    this.pc = null;
    this.restarted = false;
    this.rebuilds = 0;
    this.timer = undefined;
    this.poller = undefined;
    this.stopped = false;
    this.gathered = { relay: 0, errors: [] };
    this.last = '';
    /** The last report: { state, attempt, hint? }. */
    this.current = null;
  }

  /** The participant is known: the first attempt starts now, whether or not a connection exists yet. */
  start() {
    this.attempt = 1;
    this.restarted = false;
    this.report('connecting');
    this.arm();
  }

  /** A new RTCPeerConnection for this peer (the first, or a rebuilt one): it gets a full bound of its own. */
  attach(pc) {
    this.pc = pc;
    this.gathered = { relay: 0, errors: [] };
    pc.addEventListener('icecandidate', (e) => {
      if (this.pc === pc && / typ relay /.test(e.candidate?.candidate ?? '')) this.gathered.relay += 1;
    });
    pc.addEventListener('icecandidateerror', (e) => {
      if (this.pc === pc) this.gathered.errors.push(e.errorCode);
    });
    pc.addEventListener('connectionstatechange', () => this.changed(pc));
    if (this.state === 'connected') {
      // The other side replaced a connection this side thought was fine: it saw no media.
      this.attempt = 1;
      this.restarted = true;
      this.report('reconnecting');
    }
    this.arm();
  }

  /** "Try again": a new attempt at once, shown as connecting, with the backoff started over. */
  retry() {
    if (this.stopped) return;
    this.attempt += 1;
    this.restarted = true;
    this.rebuilds = 0;
    this.report('connecting');
    (this.hooks.retry ?? this.hooks.rebuild)?.();
    this.arm();
  }

  /**
   * Part of the peer's media that this health does not watch stopped (the
   * SFU's receiving connection failed, or a new one has not connected in
   * time): shown as reconnecting, with the remedies in order and their
   * backoff. Before the first media the current attempt's bound decides.
   */
  lost() {
    if (this.stopped || this.state !== 'connected') return;
    this.attempt = 1;
    this.report('reconnecting');
    this.restartIce();
    this.arm();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.poller);
  }

  /** 'turn': no relay configured, or it refused us; 'network': the relay answered (or was unreachable) and still nothing got through. */
  hint() {
    if (!this.turn) return 'turn';
    if (this.gathered.errors.some((code) => REFUSED.has(code))) return 'turn';
    if (this.gathered.relay > 0 || this.gathered.errors.includes(701)) return 'network';
    return 'turn';
  }

  changed(pc) {
    if (this.stopped || pc !== this.pc) return;
    const now = pc.connectionState;
    if (now === 'connected' && this.state !== 'connected') return this.poll();
    if (this.state === 'connected' && (now === 'disconnected' || now === 'failed')) {
      // Lost after it worked (a network change, a relay gone): browsers
      // sometimes recover a `disconnected` path by themselves, a `failed` one never.
      this.attempt = 1;
      this.restarted = false;
      this.report('reconnecting');
      if (now === 'failed') this.restartIce();
      this.arm();
    }
    return undefined;
  }

  /** Starts (again) the bound of the current attempt and the checks for media. */
  arm() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.expired(), this.boundMs);
    this.poll();
  }

  async poll() {
    clearTimeout(this.poller);
    if (this.stopped || this.state === 'connected') return;
    const pc = this.pc;
    let carried = false;
    try {
      carried = pc ? await this.hooks.carried(pc) : false;
    } catch {
      carried = false;
    }
    if (this.stopped || pc !== this.pc || this.state === 'connected') return;
    if (carried) {
      clearTimeout(this.timer);
      this.restarted = false;
      this.rebuilds = 0;
      this.report('connected');
      return;
    }
    this.poller = setTimeout(() => this.poll(), POLL_MS);
  }

  /** The bound passed without media: failed, whatever ICE says. First an ICE restart, then rebuilds with backoff. */
  expired() {
    if (this.stopped || this.state === 'connected') return;
    this.attempt += 1;
    if (!this.restarted) {
      this.report('failed');
      this.restartIce();
      this.arm();
      return;
    }
    this.report('failed');
    const base = Math.min(REBUILD_FIRST_MS * 2 ** this.rebuilds, REBUILD_MAX_MS);
    this.rebuilds += 1;
    clearTimeout(this.poller);
    this.timer = setTimeout(() => {
      if (this.stopped || this.state === 'connected') return;
      this.hooks.rebuild?.();
      this.arm();
    }, Math.round(base * (0.8 + Math.random() * 0.4)));
    // Media may still arrive while waiting (the other side's rebuild).
    this.poller = setTimeout(() => this.poll(), POLL_MS);
  }

  restartIce() {
    this.restarted = true;
    this.hooks.restartIce?.();
  }

  report(state) {
    this.state = state;
    const report = { state, attempt: this.attempt };
    if (state === 'failed' && this.attempt >= HINT_FROM_ATTEMPT) report.hint = this.hint();
    const key = JSON.stringify(report);
    if (key === this.last) return;
    this.last = key;
    this.current = report;
    this.hooks.onState(report);
  }
}
