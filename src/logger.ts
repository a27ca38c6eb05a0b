/**
 * @module logger
 * The process's one logger (pino), made before anything that logs: the
 * HTTP server, the realtime hub and the request limits all write through
 * it. Credentials are redacted by path; the default serializers log
 * neither headers nor bodies, and the redaction guards any future one
 * that would.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from './config.ts';

const REDACTED_PATHS = [
  'req.headers.api_key',
  'req.headers.api_secret',
  'req.headers.authorization',
  'req.headers.cookie',
];

/** `false`: a silent logger; an object: extra pino options, and where to write (standard output by default). */
export type LoggerSetting = boolean | (LoggerOptions & { stream?: DestinationStream });

export function createLogger(config: Pick<Config, 'logLevel'>, setting: LoggerSetting = true): Logger {
  if (setting === false) return pino({ level: 'silent' });
  const { stream, ...extra } = typeof setting === 'object' ? setting : {};
  const options: LoggerOptions = { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, ...extra };
  return stream ? pino(options, stream) : pino(options);
}
