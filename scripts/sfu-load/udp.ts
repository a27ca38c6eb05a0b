/**
 * @module scripts/sfu-load/udp
 * UDP on the load generator's side. Its sockets (werift's, made through
 * dgram.createSocket) get receive buffers as large as the kernel allows
 * (net.core.rmem_max), so that a generator that falls behind for a moment
 * loses fewer packets; and the machine's UDP counters (/proc/net/snmp)
 * tell how many datagrams the kernel dropped for full receive buffers in
 * a window: when that is a large part of what arrived, the generator (or
 * Janus) could not keep up and the download figures are low for that
 * reason, not for the SFU's.
 */
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';

function rmemMax(): number {
  try {
    return Number(readFileSync('/proc/sys/net/core/rmem_max', 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

let patched = false;

export function largeReceiveBuffers(): void {
  if (patched) return;
  patched = true;
  const size = Math.min(rmemMax(), 8 * 1024 * 1024);
  if (!size) return;
  const original = dgram.createSocket;
  (dgram as { createSocket: typeof dgram.createSocket }).createSocket = ((...args: Parameters<typeof dgram.createSocket>) => {
    const socket = original(...args);
    socket.once('listening', () => {
      try {
        socket.setRecvBufferSize(size);
      } catch {
        // the default buffer then
      }
    });
    return socket;
  }) as typeof dgram.createSocket;
}

export interface UdpCounters {
  inDatagrams: number;
  rcvbufErrors: number;
}

/** The machine's UDP counters (IPv4 and IPv6 together). */
export function udpCounters(): UdpCounters {
  let inDatagrams = 0;
  let rcvbufErrors = 0;
  const read = (file: string, prefix: string) => {
    try {
      const text = readFileSync(file, 'utf8');
      if (prefix === 'Udp:') {
        const lines = text.split('\n').filter((l) => l.startsWith('Udp:'));
        const names = lines[0]!.split(/\s+/);
        const values = lines[1]!.split(/\s+/).map(Number);
        inDatagrams += values[names.indexOf('InDatagrams')] ?? 0;
        rcvbufErrors += values[names.indexOf('RcvbufErrors')] ?? 0;
      } else {
        inDatagrams += Number(/^Udp6InDatagrams\s+(\d+)/m.exec(text)?.[1] ?? 0);
        rcvbufErrors += Number(/^Udp6RcvbufErrors\s+(\d+)/m.exec(text)?.[1] ?? 0);
      }
    } catch {
      // not on this system
    }
  };
  read('/proc/net/snmp', 'Udp:');
  read('/proc/net/snmp6', 'Udp6');
  return { inDatagrams, rcvbufErrors };
}

/** Of the datagrams that reached the machine's UDP sockets since `start`, the % dropped for full receive buffers. */
export function droppedSince(start: UdpCounters): number {
  const now = udpCounters();
  const dropped = now.rcvbufErrors - start.rcvbufErrors;
  const delivered = now.inDatagrams - start.inDatagrams;
  return (dropped / Math.max(1, dropped + delivered)) * 100;
}
