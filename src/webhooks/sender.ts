/**
 * @module webhooks/sender
 * One HTTP attempt of a webhook, defended for the operator's network:
 * every address a name resolves to is checked at connection time (so a
 * name cannot be pointed at a private address after the endpoint was
 * accepted), https unless private targets are allowed, a short connect
 * and a short overall timeout, redirects never followed (a 3xx is a
 * refusal), and at most a few bytes of the answer read. A fresh connection
 * per attempt, so the address check always applies.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../domain/webhooks/addresses.ts';
import { isRetryableStatus } from '../domain/webhooks/delivery.ts';
import type { AttemptResult } from '../domain/webhooks/types.ts';

export interface SendOptions {
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** From the start of the attempt to the end of the answer's headers and (limited) body. */
  responseTimeoutMs: number;
  /** How much of the answer's body is read before the connection is closed. */
  maxResponseBytes?: number;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

class Refused extends Error {
  override name = 'Refused';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A resolver that refuses private addresses: the check happens on the addresses actually connected to. */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const usable = allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new Refused(`${hostname} resolves to a private address`), []);
      if (options.all) return callback(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

export async function sendWebhook(request: WebhookRequest, options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const fail = (error: string, retryable: boolean, status: number | null = null): AttemptResult => ({ ok: false, retryable, status, error, latencyMs: latency() });

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return fail('not a URL', false);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivate)) return fail('refused: https required', false);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !options.allowPrivate && isPrivateAddress(host)) return fail('refused: private address', false);

  const maxBytes = options.maxResponseBytes ?? 1024;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      clearTimeout(connecting);
      req.destroy();
      resolve(result);
    };
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
      agent: false,
      lookup: guardedLookup(options.allowPrivate) as never,
    });
    const overall = setTimeout(() => finish(fail(`timeout after ${options.responseTimeoutMs} ms`, true)), options.responseTimeoutMs);
    let connecting: NodeJS.Timeout | undefined;
    req.on('socket', (socket) => {
      if (settled) return;
      connecting = setTimeout(() => finish(fail(`connect timeout after ${options.connectTimeoutMs} ms`, true)), options.connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connecting));
    });
    req.on('error', (error) => {
      if (error instanceof Refused) finish(fail(`refused: ${error.message}`, false));
      else finish(fail(`connection error: ${(error as NodeJS.ErrnoException).code ?? error.message}`, true));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      const done = () => {
        if (status >= 200 && status < 300) finish({ ok: true, status, latencyMs: latency() });
        else if (status >= 300 && status < 400) finish(fail(`HTTP ${status}: redirect not followed`, false, status));
        else finish(fail(`HTTP ${status}`, isRetryableStatus(status), status));
      };
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= maxBytes) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(request.body);
  });
}
