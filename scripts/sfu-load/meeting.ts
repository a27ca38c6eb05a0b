/**
 * @module scripts/sfu-load/meeting
 * One meeting of the benchmark: load participants (participant.ts) join
 * first, a few at a time, until each publishes and holds its
 * subscription (when they are enough to be on the SFU on their own); then the Chromium observers open the link one after the
 * other, each timed to its first remote frame.
 */
import type { Browser } from 'playwright-core';
import type { Foyer } from './foyer.ts';
import { close, observe, type Observer } from './observer.ts';
import { LoadParticipant } from './participant.ts';
import type { Recording } from './recording.ts';

export interface Meeting {
  id: string;
  link: string;
  load: LoadParticipant[];
  observers: Observer[];
  /** Why the load participants were not all connected in time (undefined: they were). */
  loadProblem: string | undefined;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

export async function startMeeting(
  foyer: Foyer,
  browser: Browser | undefined,
  recording: Recording,
  options: { size: number; sfuFrom: number; decrypt: boolean; observers: number; /** Videos each load participant asks for. */ watches: number; label: string; timeoutMs: number; trace?: boolean; talkers?: number },
): Promise<Meeting> {
  const { id, link } = await foyer.newMeeting();
  // At least one load participant: an observer timed alone would wait for nobody.
  const observers = browser ? Math.min(options.observers, options.size - 1) : 0;
  const loadCount = options.size - observers;
  const load: LoadParticipant[] = [];
  const meeting: Meeting = { id, link, load, observers: [], loadProblem: undefined };
  // A few at a time: as people arrive in a real meeting, not all in one instant.
  for (let i = 0; i < loadCount; i += 4) {
    const batch = Array.from({ length: Math.min(4, loadCount - i) }, (_, k) => new LoadParticipant(`${options.label}-L${i + k + 1}`, recording, options.watches, options.decrypt, i + k < (options.talkers ?? Infinity)));
    load.push(...batch);
    await Promise.all(batch.map((p) => p.join(foyer.origin, id)));
  }
  const settle = async () => {
    const ok = await until(() => load.every((p) => p.connected() && (options.size < 2 || p.subscribed > 0)), options.timeoutMs);
    if (ok) return;
    const down = load.filter((p) => !p.connected() || p.subscribed === 0);
    meeting.loadProblem = `${down.length} of ${loadCount} load participants not connected after ${options.timeoutMs / 1000} s: ${down
      .slice(0, 3)
      .map((p) => `${p.name} ${p.state()}, subscribed ${p.subscribed}, errors ${JSON.stringify(p.errors)}`)
      .join('; ')}`;
  };
  /**
   * Media reaching every load participant from Janus, for a second: an observer timed into a meeting whose
   * publishers have only just begun would measure them, not its own join.
   */
  const flowing = async () => {
    const deadline = Date.now() + options.timeoutMs;
    while (Date.now() < deadline) {
      const before = load.map((p) => p.bytes().received);
      await new Promise((r) => setTimeout(r, 1000));
      if (load.every((p, i) => p.bytes().received - before[i]! > 10_000)) return;
    }
    meeting.loadProblem ??= `media not reaching every load participant after ${options.timeoutMs / 1000} s`;
  };
  // Already on the SFU among themselves: the observers arrive in a meeting whose media flows.
  if (loadCount >= options.sfuFrom) {
    await settle();
    if (loadCount > 1) await flowing();
  }
  for (let i = 0; i < observers; i++) meeting.observers.push(await observe(browser!, link, `${options.label}-O${i + 1}`, options.timeoutMs, options.trace));
  if (loadCount < options.sfuFrom) await settle();
  return meeting;
}

export async function endMeeting(m: Meeting): Promise<void> {
  await Promise.all(m.observers.map(close));
  await Promise.all(m.load.map((p) => p.leave()));
}

export function loadBytes(m: Meeting): { sent: number; received: number }[] {
  return m.load.map((p) => p.bytes());
}
