/**
 * @module realtime/ice
 * The ICE servers a participant gets: a browser with the meeting page, any
 * participant in its `welcome`, an organization's server from
 * `GET /v3/ice-servers`. With TURN_SECRET
 * (coturn's `use-auth-secret` / `static-auth-secret`), each page gets its
 * own short-lived TURN credentials (the "TURN REST API" scheme coturn
 * implements): username `<expiry>:foyer`, password
 * base64(HMAC-SHA1(secret, username)). The shared secret never leaves the
 * server, and a copied credential stops working after TURN_CREDENTIAL_TTL_SECONDS (12 hours).
 */
import { createHmac } from 'node:crypto';
import type { IceConfig } from '../config.ts';

/** How long issued TURN credentials stay valid: a long meeting's worth. */
export const TURN_CREDENTIAL_TTL_SECONDS = 12 * 3600;

export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

/** The ICE servers as issued at `now`, with when their TURN credentials stop working (null: none issued, or static ones). */
export function issueIceServers(ice: IceConfig, now: Date): { iceServers: IceServer[]; expiresAt: Date | null } {
  const iceServers = iceServersFor(ice, now);
  const issued = ice.turnSecret !== undefined && iceServers.some((s) => s.username !== undefined);
  return { iceServers, expiresAt: issued ? new Date((Math.floor(now.getTime() / 1000) + TURN_CREDENTIAL_TTL_SECONDS) * 1000) : null };
}

export function iceServersFor(ice: IceConfig, now: Date): IceServer[] {
  const stun = ice.urls.filter((u) => u.startsWith('stun'));
  const turn = ice.urls.filter((u) => u.startsWith('turn'));
  const servers: IceServer[] = [];
  if (stun.length) servers.push({ urls: stun });
  if (turn.length) {
    if (ice.turnSecret) {
      const username = `${Math.floor(now.getTime() / 1000) + TURN_CREDENTIAL_TTL_SECONDS}:foyer`;
      const credential = createHmac('sha1', ice.turnSecret).update(username).digest('base64');
      servers.push({ urls: turn, username, credential });
    } else if (ice.username && ice.credential) {
      servers.push({ urls: turn, username: ice.username, credential: ice.credential });
    } else {
      servers.push({ urls: turn });
    }
  }
  return servers;
}
