/**
 * @module domain/webhooks/addresses
 * Protection of the operator's network: an endpoint may not point into it.
 * URLs must be https (http only when the operator allows private targets,
 * for receivers on the same machine), and an address a URL resolves to is
 * refused when it is loopback, link-local, private, shared (CGNAT),
 * multicast or unspecified, or an IPv6 form that carries an IPv4 address
 * (mapped, compatible, NAT64). The sender checks every address it connects
 * to, since a name can resolve differently at delivery time than at
 * creation.
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // IPv4-compatible (deprecated, ::a.b.c.d): some stacks still reach the IPv4 host.
  ['::', 96],
  // NAT64 (well-known and local-use prefixes): a translator forwards to the embedded IPv4 address.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for loopback, link-local, private and other addresses that are not the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  // IPv4-mapped (::ffff:10.0.0.1) and its hex spelling reach the IPv4 host.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
    return blocked.check([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), 'ipv4');
  }
  return blocked.check(lower, 'ipv6');
}

export const WEBHOOK_URL_MAX = 2000;

/**
 * What is wrong with an endpoint URL before any name is resolved (null:
 * nothing): not an http(s) URL, credentials in it, http without private
 * targets allowed, or a private address or local name written out.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > WEBHOOK_URL_MAX) return `A URL has at most ${WEBHOOK_URL_MAX} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Not a URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https://.';
  if (url.protocol === 'http:' && !allowPrivate) return 'The URL must start with https://.';
  if (url.username || url.password) return 'The URL may not contain a user name or password.';
  if (url.hash) return 'The URL may not contain a fragment (#).';
  if (!allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
      return 'The URL points to a private or local address.';
    }
  }
  return null;
}
