/**
 * @module config-sfu
 * The SFU part of the configuration (src/config.ts reads it through here):
 * which Janus WebRTC Server carries meetings of several people, and the
 * settings of the move from peer-to-peer to it.
 *
 * - `JANUS_BIN` (a path or a command name): Foyer starts and supervises one
 *   Janus of its own. Unset: `janus` when that command is on the PATH
 *   (Debian's package), else none; `none` turns it off.
 * - `JANUS_URLS` with `JANUS_API_SECRET`: a pool of Janus servers that
 *   someone else runs (other machines); excludes `JANUS_BIN`.
 * - Neither: meetings stay peer-to-peer (mesh) whatever their size.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';

export type Env = Record<string, string | undefined>;

/** Where the SFU comes from. */
export type JanusSource =
  /** One Janus that Foyer starts from this executable (absolute path), configures and restarts. */
  | { kind: 'local'; bin: string }
  /** Janus servers run elsewhere, by their WebSocket API address, sharing one API secret. */
  | { kind: 'pool'; urls: string[]; apiSecret: string }
  /** No SFU: meetings stay peer-to-peer; `why` says so at start. */
  | { kind: 'none'; why: string };

export interface PortRange {
  min: number;
  max: number;
}

export interface SfuConfig {
  janus: JanusSource;
  /** UDP ports of the local Janus's media (JANUS_RTP_PORTS). */
  rtpPorts: PortRange;
  /** The address browsers reach the local Janus at, when it sits behind a 1:1 NAT (JANUS_PUBLIC_IP). */
  publicIp: string | undefined;
  /** A meeting moves from peer-to-peer to the SFU when this many people are present. */
  fromParticipants: number;
  /** At most this many videos a participant receives at once through the SFU. */
  videoSlots: number;
}

export const DEFAULT_RTP_PORTS: PortRange = { min: 20000, max: 20999 };

/** Thrown for an invalid value; config.ts turns it into its ConfigError. */
export class SfuConfigError extends Error {}

/** The executable `name` in one of PATH's folders, or undefined. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(':')) {
    if (!dir) continue;
    const candidate = resolve(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function janusSource(env: Env): JanusSource {
  const bin = env.JANUS_BIN?.trim() || undefined;
  const urlsRaw = env.JANUS_URLS?.trim() || undefined;
  const apiSecret = env.JANUS_API_SECRET || undefined;
  if (urlsRaw) {
    if (bin && bin !== 'none') throw new SfuConfigError('Set either JANUS_BIN (a Janus that Foyer starts) or JANUS_URLS (Janus servers run elsewhere), not both.');
    const urls = [...new Set(urlsRaw.split(/\s*,\s*/).filter(Boolean))];
    for (const u of urls) {
      let parsed: URL;
      try {
        parsed = new URL(u);
      } catch {
        throw new SfuConfigError(`JANUS_URLS holds Janus WebSocket API addresses such as ws://10.0.0.5:8188 separated by commas, got "${u}".`);
      }
      if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') throw new SfuConfigError(`JANUS_URLS: each address starts with ws:// or wss://, got "${u}".`);
      if (parsed.username || parsed.password) throw new SfuConfigError('JANUS_URLS: put the API secret in JANUS_API_SECRET, not in the address.');
    }
    // Not echoed: it is a password.
    if (!apiSecret) throw new SfuConfigError("JANUS_URLS needs JANUS_API_SECRET: the Janus servers' api_secret.");
    if (apiSecret.length < 16) throw new SfuConfigError('JANUS_API_SECRET must be at least 16 characters long (a long random value, the same in every Janus of the pool).');
    return { kind: 'pool', urls, apiSecret };
  }
  if (apiSecret) throw new SfuConfigError('JANUS_API_SECRET goes with JANUS_URLS; the Janus that Foyer starts gets a random secret of its own.');
  if (bin === 'none') return { kind: 'none', why: 'JANUS_BIN=none' };
  if (bin === undefined) {
    const found = findOnPath('janus', env.PATH);
    return found ? { kind: 'local', bin: found } : { kind: 'none', why: 'no janus command on this machine' };
  }
  if (bin.includes('/')) {
    const path = resolve(bin);
    if (!isExecutableFile(path)) throw new SfuConfigError(`JANUS_BIN: no executable file at ${bin}.`);
    return { kind: 'local', bin: path };
  }
  const found = findOnPath(bin, env.PATH);
  if (!found) throw new SfuConfigError(`JANUS_BIN: no command "${bin}" on the PATH (install Debian's janus package, give a path, or set JANUS_BIN=none).`);
  return { kind: 'local', bin: found };
}

function rtpPorts(env: Env): PortRange {
  const raw = env.JANUS_RTP_PORTS?.trim();
  if (!raw) return DEFAULT_RTP_PORTS;
  const match = /^(\d{1,5})\s*-\s*(\d{1,5})$/.exec(raw);
  const min = Number(match?.[1]);
  const max = Number(match?.[2]);
  if (!match || min < 1024 || max > 65535 || min >= max) {
    throw new SfuConfigError(`JANUS_RTP_PORTS is a UDP port range such as 20000-20999 (from 1024 to 65535), got "${raw}".`);
  }
  return { min, max };
}

function publicIp(env: Env): string | undefined {
  const raw = env.JANUS_PUBLIC_IP?.trim();
  if (!raw) return undefined;
  if (isIP(raw) === 0) throw new SfuConfigError(`JANUS_PUBLIC_IP is the machine's public IP address, such as 203.0.113.10, got "${raw}".`);
  return raw;
}

function count(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new SfuConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  return value;
}

export function sfuConfig(env: Env): SfuConfig {
  const janus = janusSource(env);
  if (janus.kind === 'pool') {
    for (const name of ['JANUS_RTP_PORTS', 'JANUS_PUBLIC_IP'] as const) {
      if (env[name]?.trim()) throw new SfuConfigError(`${name} configures the Janus that Foyer starts; with JANUS_URLS, set it in each Janus's own configuration.`);
    }
  }
  return {
    janus,
    rtpPorts: rtpPorts(env),
    publicIp: publicIp(env),
    fromParticipants: count(env, 'SFU_FROM_PARTICIPANTS', 3, 2, 10_000),
    videoSlots: count(env, 'SFU_VIDEO_SLOTS', 9, 1, 49),
  };
}
