/**
 * @module cli/duration
 * Parses the CLI's key lifetimes: `30d`, `12h`, `90m`, `2w`, `45s`.
 */
import { UsageError } from './output.ts';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

export function parseDuration(text: string): number {
  const match = /^(\d+)\s*([smhdw])$/.exec(text.trim());
  if (!match || Number(match[1]) === 0) {
    throw new UsageError(`"${text}" is not a duration; use a number and a unit, e.g. 30d, 12h, 90m, 2w.`);
  }
  return Number(match[1]) * UNIT_SECONDS[match[2]!]! * 1000;
}

/** The expiry chosen by `--expires-in`, `--expires-at` or `--no-expiry` (the default). */
export function expiryFrom(
  options: { expiresIn?: string; expiresAt?: string; expiry?: boolean },
  now: Date,
): Date | null {
  const chosen = [options.expiresIn !== undefined, options.expiresAt !== undefined, options.expiry === false];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('Choose one of --expires-in, --expires-at and --no-expiry.');
  }
  if (options.expiresIn !== undefined) return new Date(now.getTime() + parseDuration(options.expiresIn));
  if (options.expiresAt !== undefined) {
    const at = new Date(options.expiresAt);
    if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(options.expiresAt)) {
      throw new UsageError(`"${options.expiresAt}" is not an ISO 8601 date-time.`);
    }
    return at;
  }
  return null;
}
