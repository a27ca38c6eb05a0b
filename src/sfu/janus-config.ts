/**
 * @module sfu/janus-config
 * The configuration Foyer writes for the Janus it starts (Janus reads
 * libconfig-style `.jcfg` files from one folder):
 * - the core (`janus.jcfg`): an API secret, the RTP port range, the 1:1 NAT
 *   mapping or a STUN server to learn the public address, and folders of
 *   Foyer's own holding only the VideoRoom plugin and the WebSocket
 *   transport (links to the installed libraries), so nothing else loads;
 * - the WebSocket transport: the Janus API on loopback only, on one port,
 *   no admin API, no TLS (it never leaves the machine);
 * - the VideoRoom plugin: no rooms of its own (Foyer creates one per meeting).
 *
 * TURN is deliberately not given to Janus: browsers relay through TURN to
 * Janus's own addresses, which is what TURN is for; Janus gathering relay
 * candidates itself would only add a hop (Janus's documentation says the same).
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PortRange } from '../config-sfu.ts';

export const VIDEOROOM_PLUGIN = 'libjanus_videoroom.so';
export const WEBSOCKETS_TRANSPORT = 'libjanus_websockets.so';

export interface JanusLibraries {
  plugins: string;
  transports: string;
}

/**
 * Where the Janus installed at `bin` keeps its plugins and transports:
 * `<prefix>/lib/janus`, `<prefix>/lib/<multiarch triplet>/janus` (Debian)
 * or `<prefix>/lib64/janus`, for `bin` at `<prefix>/bin/janus`.
 */
export function findJanusLibraries(bin: string): JanusLibraries {
  const prefix = dirname(dirname(realpathSync(bin)));
  const candidates = [join(prefix, 'lib', 'janus'), join(prefix, 'lib64', 'janus')];
  const lib = join(prefix, 'lib');
  if (existsSync(lib)) {
    for (const entry of readdirSync(lib, { withFileTypes: true })) {
      if (entry.isDirectory() && /-linux-gnu|-linux-musl/.test(entry.name)) candidates.push(join(lib, entry.name, 'janus'));
    }
  }
  for (const dir of candidates) {
    const libraries = { plugins: join(dir, 'plugins'), transports: join(dir, 'transports') };
    if (existsSync(join(libraries.plugins, VIDEOROOM_PLUGIN)) && existsSync(join(libraries.transports, WEBSOCKETS_TRANSPORT))) return libraries;
  }
  throw new Error(`cannot find Janus's VideoRoom plugin and WebSocket transport for ${bin} (looked in ${candidates.join(', ')})`);
}

export interface JanusSettings {
  /** The folder holding the configuration, and `plugins/`, `transports/` and `empty/` beside it. */
  dir: string;
  apiSecret: string;
  /** Loopback port of the WebSocket API. */
  wsPort: number;
  rtpPorts: PortRange;
  publicIp?: string | undefined;
  /** A STUN server for Janus to learn its public address (only used without `publicIp`). */
  stun?: { host: string; port: number } | undefined;
  /** ICE `ice_enforce_list`: gather candidates on these interfaces only (e.g. `lo` in tests). */
  iceInterfaces?: string | undefined;
}

/** A jcfg string: quoted, with backslashes and quotes escaped. */
function str(value: string): string {
  if (/[\r\n]/.test(value)) throw new Error('a Janus setting cannot hold a line break');
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function section(name: string, items: Record<string, string | number | boolean | undefined>): string {
  const lines = Object.entries(items)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `\t${k} = ${typeof v === 'string' ? str(v) : String(v)}`);
  return `${name}: {\n${lines.join('\n')}\n}\n`;
}

/** The files to write into `settings.dir`, by name. */
export function janusConfigFiles(settings: JanusSettings): Record<string, string> {
  const { dir } = settings;
  const core = [
    section('general', {
      configs_folder: dir,
      plugins_folder: join(dir, 'plugins'),
      transports_folder: join(dir, 'transports'),
      events_folder: join(dir, 'empty'),
      loggers_folder: join(dir, 'empty'),
      debug_level: 4,
      debug_colors: false,
      api_secret: settings.apiSecret,
      server_name: 'foyer',
      hide_dependencies: true,
      // Sessions of a Foyer that went away end with its connection.
      reclaim_session_timeout: 0,
      session_timeout: 60,
      protected_folders: undefined,
    }),
    section('media', { rtp_port_range: `${settings.rtpPorts.min}-${settings.rtpPorts.max}` }),
    section('nat', {
      nat_1_1_mapping: settings.publicIp,
      stun_server: settings.publicIp ? undefined : settings.stun?.host,
      stun_port: settings.publicIp ? undefined : settings.stun?.port,
      // A STUN server that does not answer at start must not keep meetings from their SFU.
      ignore_unreachable_ice_server: true,
      ice_enforce_list: settings.iceInterfaces,
      // Virtual interfaces of VMs and containers give candidates nobody can reach.
      ice_ignore_list: settings.iceInterfaces ? undefined : 'vmnet,docker,veth,virbr,br-',
      nice_debug: false,
    }),
    section('plugins', {}),
    section('transports', {}),
    section('loggers', {}),
    section('events', { broadcast: false }),
  ].join('\n');
  const websockets = [
    section('general', { json: 'compact', ws: true, ws_port: settings.wsPort, ws_ip: '127.0.0.1', wss: false }),
    section('admin', { admin_ws: false, admin_wss: false }),
  ].join('\n');
  return {
    'janus.jcfg': core,
    'janus.transport.websockets.jcfg': websockets,
    // Rooms come and go with meetings; none is configured here.
    'janus.plugin.videoroom.jcfg': section('general', {}),
  };
}

/** The first `stun:` server of ICE_SERVERS as host and port (3478 when none is given), or undefined. */
export function stunServerOf(urls: readonly string[]): { host: string; port: number } | undefined {
  for (const u of urls) {
    const match = /^stun:(\[[^\]]+\]|[^:?]+)(?::(\d+))?/.exec(u);
    if (match) return { host: match[1]!.replace(/^\[|\]$/g, ''), port: match[2] ? Number(match[2]) : 3478 };
  }
  return undefined;
}
