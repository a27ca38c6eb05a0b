/**
 * @module test/webhooks/receiver
 * A webhook receiver for tests: a node:http server on 127.0.0.1 that checks
 * every request by the Standard Webhooks rules, written here from the
 * specification and independent of the server's signing code:
 * the signed content is `${webhook-id}.${webhook-timestamp}.${body}`, the
 * key is the base64-decoded part of the secret after `whsec_`, the
 * signature HMAC-SHA256 in base64, `webhook-signature` a space-separated
 * list of `v1,<signature>` of which one must match (compared in constant
 * time), and the timestamp within five minutes of now.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface Received {
  id: string;
  timestamp: number;
  /** Whether the signature verified with the secret the test gave. */
  verified: boolean;
  /** How many `v1,` signatures the `webhook-signature` header carried. */
  signatures: number;
  headers: Record<string, string | undefined>;
  body: any;
  raw: string;
  status: number;
}

/** What the receiver answers: a status, optionally after a delay, or a redirect. */
export type Behaviour = (request: { id: string; attempt: number }) => { status: number; delayMs?: number; location?: string };

export function verify(secret: string, headers: Record<string, string | undefined>, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export class Receiver {
  readonly received: Received[] = [];
  /** The secrets to verify with; set once the endpoint is created. */
  secrets: string[] = [];
  behaviour: Behaviour = () => ({ status: 204 });
  /** Requests that arrived, answered or not yet. */
  arrivals = 0;
  /** TCP connections accepted, whatever came over them (a TLS hello is no request, but it is a connection). */
  connections = 0;
  private readonly attempts = new Map<string, number>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  url = '';

  static async start(path = '/hooks'): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.server.on('connection', () => (receiver.connections += 1));
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const address = receiver.server.address();
    if (!address || typeof address !== 'object') throw new Error('no address');
    receiver.url = `http://127.0.0.1:${address.port}${path}`;
    return receiver;
  }

  /** Accepted (2xx) deliveries, in arrival order. */
  get accepted(): Received[] {
    return this.received.filter((r) => r.status >= 200 && r.status < 300);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const headers = req.headers as Record<string, string | undefined>;
    const id = headers['webhook-id'] ?? '';
    this.arrivals += 1;
    const attempt = (this.attempts.get(id) ?? 0) + 1;
    this.attempts.set(id, attempt);
    const answer = this.behaviour({ id, attempt });
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    this.received.push({
      id,
      timestamp: Number(headers['webhook-timestamp']),
      verified: this.secrets.some((s) => verify(s, headers, raw)),
      signatures: (headers['webhook-signature'] ?? '').split(' ').filter((entry) => entry.startsWith('v1,')).length,
      headers,
      body,
      raw,
      status: answer.status,
    });
    if (res.destroyed) return;
    res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
    res.end(answer.status >= 300 && answer.status < 400 ? '' : 'ok');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export async function waitUntil(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
