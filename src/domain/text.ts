/**
 * @module domain/text
 * Small validators for free text fields, collecting field errors rather
 * than throwing at the first, so a client sees every problem at once.
 */
import type { FieldError } from './errors.ts';

export function checkText(
  errors: FieldError[],
  field: string,
  value: string | undefined | null,
  { required = false, max }: { required?: boolean; max: number },
): void {
  if (value === undefined || value === null) {
    if (required) errors.push({ field, message: `${field} is required.` });
    return;
  }
  if (required && value.trim() === '') {
    errors.push({ field, message: `${field} must not be empty.` });
  } else if (value.length > max) {
    errors.push({ field, message: `${field} has at most ${max} characters.` });
  } else if (/\p{Cs}/u.test(value)) {
    // A lone surrogate: each database would store it altered, and differently.
    errors.push({ field, message: `${field} must be well-formed text (it holds a lone surrogate).` });
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}
