/**
 * @module logger
 * The process's one logger (pino), made before anything that logs: the
 * HTTP server, the realtime side and the request limits all write through
 * it. Requests are logged without headers or bodies, and without the token
 * of a password link or the code of a single sign-on callback in their URL; credential headers are redacted by
 * path too, as a guard for any future serializer that would log them.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.ts';

const REDACTED_PATHS = [
  'req.headers.api_key',
  'req.headers.api_secret',
  'req.headers.authorization',
  'req.headers.cookie',
  // A participant's resume token (in a signalling `join` or `welcome`) takes their place back: redacted, should one ever be logged.
  'resume',
  '*.resume',
];

/** Parts of a path that are credentials: a password link's token, the query of the single sign-on callback (its authorization code). */
const SECRET_PATHS = /^(\/dashboard\/password\/)[^/?#]+|^(\/dashboard\/sso\/callback\?).+/;
/** A member's pass to a meeting (`?pass=`) acts as that member: never in the log. */
const PASS_PARAMETER = /([?&]pass=)[^&#]*/g;

/** What a request looks like in the log: no headers, no body, and no token from its path. */
export function requestForLog(request: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: request.method,
    url: request.url
      ?.replace(SECRET_PATHS, (_whole, link?: string, callback?: string) => `${link ?? callback}[redacted]`)
      .replace(PASS_PARAMETER, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * What a failure leaves in the log: its class and code, never its message
 * or stack, which may hold SQL text or what a client sent.
 */
export function failureOf(error: unknown): { name: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? { name: error.name, code } : { name: error.name };
  }
  return { name: typeof error };
}

/**
 * A request that failed because its client went away (reset or closed the
 * connection before its body was read): nothing failed on this side, so it
 * is logged at `info`, not as an error.
 */
export function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error instanceof Error && error.message === 'aborted');
}

/** `false`: a silent logger; an object: extra pino options, and where to write (standard output by default). */
export type LoggerSetting = boolean | (LoggerOptions & { stream?: DestinationStream });

export function createLogger(config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>, setting: LoggerSetting = true): Logger {
  if (setting === false) return pino({ level: 'silent' });
  const { stream, ...extra } = typeof setting === 'object' ? setting : {};
  const options: LoggerOptions = {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: requestForLog },
    ...extra,
  };
  if (stream) return pino(options, stream);
  // Redaction and serializers run before the transport, so pretty lines hide the same things.
  if (wantsPretty(config.logFormat ?? 'json')) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(options);
}

/** People read a terminal; log collectors read JSON. */
function wantsPretty(format: NonNullable<Config['logFormat']>): boolean {
  return format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
}
