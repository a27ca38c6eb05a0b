/**
 * @module realtime/ws-route
 * The signalling surface: the WebSocket at `/ws` (outside the API prefix:
 * browsers use it, not API clients), mounted by the composition root as an
 * encapsulated plugin of its own. It reads the cookies it needs itself
 * and runs the realtime side it is given with the server: started when
 * the server is ready, stopped (every connection closed) before it closes. Oversized frames are refused by `ws` itself
 * (close 1009), malformed ones by the connection (close 4400); either way only
 * that socket closes. Server pings detect a dropped connection within two
 * ping intervals, and the participant then leaves like anyone else.
 *
 * One client address may hold at most `connectionsPerAddress` sockets on
 * this instance (WS_CONNECTIONS_PER_ADDRESS): a socket beyond that is
 * upgraded, told why (`error` `too_many_connections`) and closed with 4429
 * at once, before the realtime side sees it. A close code rather than an HTTP 429 to
 * the upgrade, because a page sees close codes and cannot see the status
 * of a refused upgrade (only an abnormal close, after which it would keep
 * reconnecting).
 */
import fastifyCookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Realtime, SocketSignIn } from './realtime.ts';
import { CloseCode, MAX_MESSAGE_BYTES } from './protocol.ts';

/** The part of a `ws` WebSocket used here (the package ships no typings of its own). */
interface WsSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly CONNECTING: number;
  send(data: string): void;
  close(code: number, reason: string): void;
  terminate(): void;
  ping(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
  on(event: 'pong', listener: () => void): void;
  /** `code`: the client's close code, 1006 when the socket ended without a closing handshake. */
  on(event: 'close', listener: (code: number) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
}

export interface WsRouteOptions {
  realtime: Realtime;
  /** Interval of server pings; a socket that misses one pong is dropped at the next. */
  pingIntervalMs: number;
  /** The signed-in member whose browser opens the socket (from its session cookie), with that session, if any. */
  memberOf?: (request: FastifyRequest) => Promise<SocketSignIn | null>;
  /** Who the browser is across reconnects (its participant cookie, hashed), if it has one. */
  browserOf?: (request: FastifyRequest) => string | null;
  /** Open sockets per client address (`request.ip`); 0: no cap. */
  connectionsPerAddress: number;
}

/** A client that never answers a close handshake is cut off after this. */
const CLOSE_GRACE_MS = 3000;

function closeSocket(socket: WsSocket, code: number, reason: string): void {
  if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
}

/**
 * Whether the upgrade comes from a page of this same site. A member's
 * socket acts with their session, so a page of another site must not get
 * one opened for it (browsers send no SameSite=Lax cookie across sites,
 * and this check holds even where one would).
 */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export async function signallingPlugin(app: FastifyInstance, opts: WsRouteOptions): Promise<void> {
  const { realtime, pingIntervalMs } = opts;
  // Before the websocket plugin's own preClose (which drops every socket): connections close with a reason, and presence is recorded.
  app.addHook('onReady', async () => realtime.start());
  app.addHook('preClose', async () => realtime.stop());
  // The member's session and the participant cookie are read at the upgrade.
  await app.register(fastifyCookie);
  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });
  const members = new WeakMap<FastifyRequest, SocketSignIn | null>();
  const openByAddress = new Map<string, number>();

  const preValidation = async (request: FastifyRequest) => {
    members.set(request, opts.memberOf && sameOrigin(request) ? await opts.memberOf(request) : null);
  };

  app.get('/ws', { websocket: true, schema: { hide: true }, preValidation }, (socket: WsSocket, request: FastifyRequest) => {
    const address = request.ip;
    const open = openByAddress.get(address) ?? 0;
    if (opts.connectionsPerAddress > 0 && open >= opts.connectionsPerAddress) {
      const message = 'Too many connections from this address.';
      socket.send(JSON.stringify({ type: 'error', code: 'too_many_connections', message }));
      closeSocket(socket, CloseCode.tooManyMessages, message);
      socket.on('error', () => {});
      return;
    }
    openByAddress.set(address, open + 1);
    let alive = true;
    const connection = realtime.open({
      send(message) {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      },
      close(code, reason) {
        closeSocket(socket, code, reason);
      },
    }, members.get(request) ?? null, opts.browserOf?.(request) ?? null, address);
    socket.on('message', (data, isBinary) => {
      alive = true;
      if (isBinary) {
        connection.receive('\u0000');
        return;
      }
      connection.receive(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : (data as Buffer).toString('utf8'));
    });
    socket.on('pong', () => {
      alive = true;
    });
    const pinger = setInterval(() => {
      if (!alive) {
        // Once pending input is read (timers run before it): a pong that arrived while this process was busy counts.
        setImmediate(() => {
          if (!alive) socket.terminate();
        });
        return;
      }
      alive = false;
      socket.ping();
    }, pingIntervalMs);
    socket.on('close', (code: number) => {
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left > 0) openByAddress.set(address, left);
      else openByAddress.delete(address);
      clearInterval(pinger);
      // A frame ws refused (oversized, malformed) ends the socket without a handshake too, but that is no drop.
      connection.closed(refused ? undefined : code);
    });
    // Protocol errors (oversized or malformed frames) end in 'close'.
    let refused = false;
    socket.on('error', () => {
      refused = true;
    });
  });
}

export { CloseCode };
