/**
 * @module web/dashboard/form-ids
 * One-time form ids for forms whose answer shows a secret: reloading that
 * answer sends the form again, and the second send must not issue a second
 * object. Remembered by this process for an hour (behind several instances
 * a resend reaching another one issues a second object, shown as any new
 * one is). The same scheme as the API-key form (routes/keys.ts).
 */
import { randomBytes } from 'node:crypto';

const FORM_ID_MS = 3_600_000;
const FORM_IDS_MAX = 10_000;

export interface OneTimeForms {
  /** A fresh id for a form about to be shown. */
  issue(): string;
  /** True the first time an id is sent within the hour; forms without a well-formed id are always new. */
  firstSend(formId: string): boolean;
  /** Forgets an id whose send was refused, so the corrected form can be sent. */
  forget(formId: string): void;
}

export function oneTimeForms(): OneTimeForms {
  const sent = new Map<string, number>();
  return {
    issue: () => randomBytes(16).toString('base64url'),
    firstSend(formId) {
      if (!/^[A-Za-z0-9_-]{16,64}$/.test(formId)) return true;
      const now = Date.now();
      for (const [id, at] of sent) {
        if (now - at < FORM_ID_MS && sent.size < FORM_IDS_MAX) break;
        sent.delete(id);
      }
      if (sent.has(formId)) return false;
      sent.set(formId, now);
      return true;
    },
    forget: (formId) => void sent.delete(formId),
  };
}
