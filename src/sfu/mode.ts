/**
 * @module sfu/mode
 * The one line `npm start` prints about the SFU: a Janus of Foyer's own,
 * a pool of N, or none (meetings stay peer-to-peer). Addresses of the
 * pool are shown without anything secret.
 */
import type { SfuConfig } from '../config-sfu.ts';

/** A server's name in logs, metrics and the database: its host and port, never credentials or paths. */
export function serverLabel(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'wss:' ? '443' : '80');
  return `${parsed.hostname}:${port}`;
}

export function describeSfu(sfu: SfuConfig): string {
  const { janus } = sfu;
  const moveAt = `meetings of ${sfu.fromParticipants} or more people use it`;
  switch (janus.kind) {
    case 'local':
      return `SFU: local Janus (${janus.bin}), media on UDP ${sfu.rtpPorts.min}-${sfu.rtpPorts.max}${sfu.publicIp ? ` announced as ${sfu.publicIp}` : ''}; ${moveAt}.`;
    case 'pool':
      return `SFU: pool of ${janus.urls.length} Janus server${janus.urls.length === 1 ? '' : 's'} (${janus.urls.map(serverLabel).join(', ')}); ${moveAt}.`;
    case 'none':
      return `SFU: none (${janus.why}); every meeting stays peer-to-peer (mesh), which suits up to about 4 people.`;
  }
}
