/**
 * @module web/dashboard/forms
 * Reading a posted form and answering a refused one. Form bodies are
 * whatever a browser (or anyone) sent: a field may be missing, repeated or
 * not a string, so every read says what it expects. A command's
 * validation and conflict errors become messages by field, to be shown
 * beside the fields (in the domain's words, as the API gives them).
 */
import type { FastifyRequest } from 'fastify';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { isUuidV4 } from '../../domain/ids.ts';

export type FormBody = Record<string, unknown>;

/** Messages by field name; the first message of a field wins. */
export type FieldErrors = Record<string, string>;

export function formOf(request: FastifyRequest): FormBody {
  const body = request.body;
  return body && typeof body === 'object' ? (body as FormBody) : {};
}

/** Every string value of a field, in the order sent. */
export function texts(form: FormBody, name: string): string[] {
  const value = form[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((v): v is string => typeof v === 'string');
}

/** The field's (first) value, or '' when absent. */
export function text(form: FormBody, name: string): string {
  return texts(form, name)[0] ?? '';
}

/** A checkbox: sent (with any value) when ticked, absent otherwise. */
export function checked(form: FormBody, name: string): boolean {
  return texts(form, name).length > 0;
}

/** The field errors of a refused command, or undefined when the error is not a refusal of the input. */
export function refusal(error: unknown): { errors: FieldErrors; status: number } | undefined {
  if (!(error instanceof ValidationError || error instanceof ConflictError)) return undefined;
  const errors: FieldErrors = {};
  for (const { field, message } of error.fieldErrors) errors[field] ??= message;
  if (error.fieldErrors.length === 0) errors[''] = error.message;
  return { errors, status: error instanceof ConflictError ? 409 : 400 };
}

/** Errors of fields the form does not show, for the summary above it. */
export function otherErrors(errors: FieldErrors, shown: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([field]) => !shown.includes(field))
    .map(([, message]) => message);
}

/** An object id from a path: one that cannot be an id names nothing (and never reaches the store). */
export function pathId(value: string, resource: string): string {
  if (!isUuidV4(value)) throw new NotFoundError(resource);
  return value.toLowerCase();
}

/** What the address field of a room, board or queue shows before the slug: the host its link is on. */
export function slugPrefix(publicUrl: string): string {
  return `${publicUrl.replace(/^https?:\/\//, '')}/`;
}
