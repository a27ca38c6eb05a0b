/**
 * @module cli/output
 * How the CLI speaks: with `--json`, exactly one JSON object on stdout per
 * command (scripts parse it); otherwise short human lines. Errors always go
 * to stderr with a non-zero exit, never to stdout.
 */
import { DomainError } from '../domain/errors.ts';
import { ConfigError } from '../config.ts';

export interface Output {
  json: boolean;
  /** Prints the result: `value` as JSON, or `human` lines. */
  result(value: object, human: string | string[]): void;
}

export function createOutput(json: boolean): Output {
  return {
    json,
    result(value, human) {
      if (json) process.stdout.write(JSON.stringify(value) + '\n');
      else process.stdout.write((Array.isArray(human) ? human.join('\n') : human) + '\n');
    },
  };
}

/** Exit codes: 1 for a refused operation, 2 for bad usage or configuration. */
export function reportError(error: unknown): number {
  if (error instanceof DomainError) {
    const lines = [`foyer: ${error.message}`];
    for (const fe of error.fieldErrors) {
      if (fe.message !== error.message) lines.push(`  ${fe.field}: ${fe.message}`);
    }
    process.stderr.write(lines.join('\n') + '\n');
    return 1;
  }
  if (error instanceof ConfigError || error instanceof UsageError) {
    process.stderr.write(`foyer: ${error.message}\n`);
    return 2;
  }
  process.stderr.write(`foyer: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

export class UsageError extends Error {
  override name = 'UsageError';
}
