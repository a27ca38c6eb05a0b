/**
 * @module test/sfu/support
 * A real Janus (Debian's `janus`, VideoRoom plugin) started by the tests
 * through Foyer's own launcher, on loopback: its API on a free port, its
 * ICE candidates on `lo` only, and RTP ports in a range of its own, so
 * that several test runs on one machine do not meet. Without Janus the SFU
 * suites skip with a printed reason, except under CI=true, where that is
 * a failure (.ci/run installs it).
 */
import { randomInt } from 'node:crypto';
import { findOnPath } from '../../src/config-sfu.ts';
import { LocalJanus, type LaunchLog } from '../../src/sfu/launcher.ts';

export const JANUS_BIN = process.env.JANUS_BIN && process.env.JANUS_BIN !== 'none' ? process.env.JANUS_BIN : findOnPath('janus', process.env.PATH);

export function janusSkipReason(): string | undefined {
  if (JANUS_BIN) return undefined;
  const reason = 'Janus not found (apt-get install janus)';
  if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires the SFU tests`);
  console.log(`# skipping SFU tests: ${reason}`);
  return reason;
}

/** A hundred RTP ports somewhere in 30000-59999, different from run to run. */
export function testRtpPorts(): { min: number; max: number } {
  const min = 30000 + randomInt(0, 300) * 100;
  return { min, max: min + 99 };
}

/** Collects what the code under test logs, for assertions and for failure messages. */
export function recordingLog(): LaunchLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info: ${m}`),
    warn: (m) => lines.push(`warn: ${m}`),
    error: (m) => lines.push(`error: ${m}`),
  };
}

export function testJanus(log: LaunchLog = recordingLog(), apiSecret?: string): LocalJanus {
  return new LocalJanus({ bin: JANUS_BIN!, rtpPorts: testRtpPorts(), iceInterfaces: 'lo', log, restartDelayMs: 100, apiSecret });
}

/** Resolves with `emitter`'s next `event`, or fails after `timeoutMs`. */
export function nextEvent<T extends unknown[]>(emitter: { once(event: string, listener: (...args: T) => void): unknown }, event: string, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    emitter.once(event, (...args: T) => {
      clearTimeout(timer);
      resolve(args);
    });
  });
}
