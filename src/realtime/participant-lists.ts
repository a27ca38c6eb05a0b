/**
 * @module realtime/participant-lists
 * The participant lists this instance holds: one per place it has
 * participants in, kept current by the deltas on the bus (a participant
 * joined, left, changed media) rather than read again from the database
 * after every change, so the cost of a change does not grow with the size
 * of the meeting.
 *
 * The database is read only to catch up: a place's first participant on
 * this instance brings the list read in their join's transaction; after a
 * lost message (Redis reconnected, a skipped sequence number) every held
 * list is read again.
 *
 * A list read from the database can miss deltas that arrived while it was
 * being read (they were published after their commits, and the read may
 * have begun before). So every delta received is kept for a while, and a
 * list installed from a read is replayed with the deltas received since
 * the read began (`mark`): applying a delta twice changes nothing, and the
 * deltas of one participant arrive in order.
 */
import type { Participant, PlaceRef } from '../domain/presence.ts';
import { placeKey } from '../domain/presence.ts';
import type { PresenceChange, ListedParticipant } from './bus.ts';

/** How long received deltas are kept for replay: far longer than a join's transaction. */
const KEEP_MS = 15_000;

export function listedParticipant(p: Participant): ListedParticipant {
  const entry: ListedParticipant = { id: p.id, displayName: p.displayName, audio: p.audio, video: p.video, screen: p.screen, host: p.host, joinedAt: p.joinedAt.getTime() };
  return p.reconnecting ? { ...entry, reconnecting: true } : entry;
}

interface Received {
  n: number;
  at: number;
  change: PresenceChange;
}

interface Held {
  place: PlaceRef;
  entries: ListedParticipant[];
}

export type ParticipantListListener = (place: PlaceRef, entries: readonly ListedParticipant[]) => void;

export class ParticipantLists {
  private readonly held = new Map<string, Held>();
  /** Deltas received in the last KEEP_MS, by place. */
  private readonly received = new Map<string, Received[]>();
  private count = 0;
  /** Deltas numbered up to this one may have been dropped from `received`. */
  private forgottenUpTo = 0;
  private prunedAt = Date.now();
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;

  /**
   * @param read reads a place's participants from the database (catching up);
   * @param changed hears every change of a held list.
   */
  constructor(
    private readonly read: (place: PlaceRef) => Promise<Participant[]>,
    private readonly changed: ParticipantListListener,
  ) {}

  /** Where the deltas received from now on begin: take it before reading a list. */
  mark(): number {
    return this.count;
  }

  /** A delta from the bus: kept for replay, and applied when the place is held here. */
  apply(place: PlaceRef, change: PresenceChange): void {
    const key = placeKey(place);
    const now = Date.now();
    const list = this.received.get(key);
    const entry = { n: ++this.count, at: now, change };
    if (list) list.push(entry);
    else this.received.set(key, [entry]);
    if (now - this.prunedAt > KEEP_MS / 4) this.prune(now);
    const held = this.held.get(key);
    if (held && applyTo(held.entries, change)) this.changed(held.place, held.entries);
  }

  /**
   * Starts holding `place` with `participants`, read from the database
   * after `since` was marked. Does nothing when the place is held already
   * (its deltas keep it current).
   */
  hold(place: PlaceRef, participants: Participant[], since: number): void {
    const key = placeKey(place);
    if (this.held.has(key)) return;
    const held: Held = { place, entries: [] };
    this.held.set(key, held);
    if (this.install(held, key, participants, since)) this.changed(place, held.entries);
  }

  /**
   * `participants`, read from the database after `since` was marked, with
   * the deltas received since then applied and the hands known here: what
   * a participant entering now is welcomed with. The list held here is no
   * use for that (it may not know the newcomer's own join yet), nor is the
   * read alone (a delta applied while it was read, someone arriving at the
   * same time, was pushed before the newcomer could hear it).
   */
  caughtUp(place: PlaceRef, participants: Participant[], since: number): ListedParticipant[] {
    const key = placeKey(place);
    const entries = this.fromRead(this.held.get(key)?.entries ?? [], participants);
    for (const r of this.received.get(key) ?? []) if (r.n > since) applyTo(entries, r.change);
    return entries;
  }

  /** The last participant of `place` on this instance left: its list is no longer kept. */
  release(place: PlaceRef): void {
    this.held.delete(placeKey(place));
  }

  entries(place: PlaceRef): readonly ListedParticipant[] | undefined {
    return this.held.get(placeKey(place))?.entries;
  }

  /**
   * Reads every held list again (deltas may have been lost) and tells the
   * listener each, changed or not. A refresh asked for while one runs runs
   * once more after it.
   */
  refreshAll(onError: (error: unknown) => void): Promise<void> {
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        await Promise.all([...this.held.entries()].map(([key, held]) => this.refresh(key, held).catch(onError)));
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refresh(key: string, held: Held): Promise<void> {
    const since = this.mark();
    const participants = await this.read(held.place);
    // Released (or released and held anew from a newer read) meanwhile: that one stands.
    if (this.held.get(key) !== held) return;
    this.install(held, key, participants, since);
    this.changed(held.place, held.entries);
  }

  /** Replaces the list with a read, then replays the deltas received since `since`; returns whether the replay changed it. */
  private install(held: Held, key: string, participants: Participant[], since: number): boolean {
    held.entries.splice(0, held.entries.length, ...this.fromRead(held.entries, participants));
    // Deltas of the read's time are gone already (a read slower than KEEP_MS): read again.
    if (since < this.forgottenUpTo) void this.refreshAll(() => {});
    let changed = false;
    for (const r of this.received.get(key) ?? []) if (r.n > since) changed = applyTo(held.entries, r.change) || changed;
    return changed;
  }

  /** A read as a list, oldest first; hands are not in the database: those `known` here stay with their participants. */
  private fromRead(known: readonly ListedParticipant[], participants: Participant[]): ListedParticipant[] {
    const raised = new Set(known.filter((e) => e.hand).map((e) => e.id));
    return participants.map(listedParticipant).map((e) => (raised.has(e.id) ? { ...e, hand: true } : e)).sort(byArrival);
  }

  private prune(now: number): void {
    this.prunedAt = now;
    for (const [key, list] of this.received) {
      let keep = 0;
      while (keep < list.length && now - list[keep]!.at > KEEP_MS) this.forgottenUpTo = Math.max(this.forgottenUpTo, list[keep++]!.n);
      if (keep === list.length) this.received.delete(key);
      else if (keep > 0) list.splice(0, keep);
    }
  }
}

function byArrival(a: ListedParticipant, b: ListedParticipant): number {
  return a.joinedAt - b.joinedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Applies one delta; returns whether the list changed. */
function applyTo(entries: ListedParticipant[], change: PresenceChange): boolean {
  const id = change.kind === 'joined' ? change.participant.id : change.participantId;
  const index = entries.findIndex((e) => e.id === id);
  switch (change.kind) {
    case 'joined': {
      const entry = { ...change.participant };
      if (index >= 0) {
        // A join says nothing of the hand: the one known here stays.
        if (entries[index]!.hand) entry.hand = true;
        if (sameEntry(entries[index]!, entry)) return false;
        entries.splice(index, 1);
      }
      const at = entries.findIndex((e) => byArrival(entry, e) < 0);
      entries.splice(at < 0 ? entries.length : at, 0, entry);
      return true;
    }
    case 'left':
      if (index < 0) return false;
      entries.splice(index, 1);
      return true;
    case 'unhosted': {
      const entry = entries[index];
      if (!entry?.host) return false;
      entry.host = false;
      return true;
    }
    case 'media': {
      const entry = entries[index];
      const { audio, video, screen } = change.media;
      if (!entry || (entry.audio === audio && entry.video === video && entry.screen === screen)) return false;
      Object.assign(entry, { audio, video, screen });
      return true;
    }
    case 'hand': {
      const entry = entries[index];
      if (!entry || Boolean(entry.hand) === change.raised) return false;
      entry.hand = change.raised;
      return true;
    }
    case 'connection': {
      const entry = entries[index];
      if (!entry || Boolean(entry.reconnecting) === change.reconnecting) return false;
      if (change.reconnecting) entry.reconnecting = true;
      else delete entry.reconnecting;
      return true;
    }
  }
}

function sameEntry(a: ListedParticipant, b: ListedParticipant): boolean {
  return a.displayName === b.displayName && a.audio === b.audio && a.video === b.video && a.screen === b.screen && a.host === b.host && a.joinedAt === b.joinedAt && Boolean(a.hand) === Boolean(b.hand) && Boolean(a.reconnecting) === Boolean(b.reconnecting);
}
