/**
 * @module scripts/first-frame
 * What the latency scripts share: waiting for a page's first remote video
 * frame (window.foyer.firstRemoteFrameAt: decoded from the network and
 * painted, see public/js/lib/first-frame.js) or for the page to give up on
 * a connection, so that a join that failed is reported as a failure and
 * never as a time; the median; and, with `--relay`, Debian's coturn on
 * loopback with Foyer sending every call through it.
 */
import type { Page } from 'playwright-core';
import { loadConfig, type IceConfig } from '../src/config.ts';
import { startCoturn, type Coturn } from '../test/support/coturn.ts';

export type FirstFrame = { ok: true; at: number } | { ok: false; why: string };

/**
 * The page's first remote frame (its performance.now() time), or why there
 * was none: a connection the page reported failed (no media within its
 * bound), or nothing at all within `timeoutMs`.
 */
export async function firstFrame(page: Page, timeoutMs = 30_000): Promise<FirstFrame> {
  const handle = await page
    .waitForFunction(
      () => {
        const foyer = (window as any).foyer;
        const at = foyer?.firstRemoteFrameAt?.();
        if (at !== null && at !== undefined) return { ok: true, at };
        const failed = Object.values(foyer?.peerStates?.() ?? {}).find((s: any) => s?.state === 'failed') as any;
        if (failed) return { ok: false, why: `the page reported the connection failed (no media within its bound; attempt ${failed.attempt}${failed.hint ? `, hint: ${failed.hint}` : ''})` };
        return false;
      },
      undefined,
      { timeout: timeoutMs, polling: 20 },
    )
    .catch(() => null);
  if (!handle) return { ok: false, why: `no remote video frame within ${timeoutMs / 1000} s` };
  return (await handle.jsonValue()) as FirstFrame;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}

/** One line on a set of measured times, and on the failures: they are never part of the times. */
export function summary(what: string, times: number[], failures: number, goalMs: number): string {
  const total = times.length + failures;
  const failed = failures ? `; ${failures} of ${total} FAILED (no video)` : '';
  if (!times.length) return `${what}: no successful run of ${total}${failed}`;
  const sorted = [...times].sort((a, b) => a - b);
  return `${what}: median ${median(times).toFixed(0)} ms over ${times.length} (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}); goal < ${goalMs} ms${failed}`;
}

/**
 * `--relay`: coturn on loopback and ICE settings that force every call
 * through it (ICE_TRANSPORT_POLICY=relay); `--wrong-turn-secret` in
 * addition gives Foyer a secret coturn does not know, to see failures
 * reported as such. Without `--relay`: no TURN, default ICE settings.
 */
export async function relayOption(args: string[]): Promise<{ ice?: IceConfig; env: Record<string, string>; turn?: Coturn; label: string }> {
  if (!args.includes('--relay')) return { env: {}, label: 'direct (loopback)' };
  const turn = await startCoturn();
  const wrong = args.includes('--wrong-turn-secret');
  const env = { ICE_SERVERS: turn.urls.join(','), TURN_SECRET: wrong ? `not-${turn.secret}` : turn.secret, ICE_TRANSPORT_POLICY: 'relay' };
  return { ice: loadConfig(env).ice, env, turn, label: wrong ? 'through coturn, relay only, with a WRONG secret' : 'through coturn, relay only' };
}
