/**
 * @module mail/member-mail
 * The words of the mails members get: an invitation or a password-reset
 * link, in English or German, as plain text and as simple HTML (no images,
 * no remote content, nothing a mail client must fetch). The link is the
 * only secret in them; nothing else about the account is said.
 */
import type { MemberMail } from '../domain/context.ts';

export interface WrittenMail {
  subject: string;
  text: string;
  html: string;
}

type Lang = 'en' | 'de';

interface Words {
  subject: (m: MemberMail) => string;
  greeting: (m: MemberMail) => string;
  body: (m: MemberMail) => string;
  button: string;
  expires: (when: string) => string;
  ignore: string;
  locale: string;
}

const WORDS: Record<Lang, Record<MemberMail['kind'], Words>> = {
  en: {
    invite: {
      subject: (m) => `Your invitation to ${m.organizationName} on Foyer`,
      greeting: (m) => `Hello ${m.fullName},`,
      body: (m) => `You have been invited to the Foyer dashboard of ${m.organizationName}. Open this link to choose your password:`,
      button: 'Choose your password',
      expires: (when) => `The link works once, until ${when}.`,
      ignore: 'If you did not expect this invitation, you can ignore this mail.',
      locale: 'en-GB',
    },
    reset: {
      subject: (m) => `Reset your Foyer password for ${m.organizationName}`,
      greeting: (m) => `Hello ${m.fullName},`,
      body: (m) => `Someone asked to reset your password for the Foyer dashboard of ${m.organizationName}. Open this link to choose a new one:`,
      button: 'Choose a new password',
      expires: (when) => `The link works once, until ${when}.`,
      ignore: 'If you did not ask for this, ignore this mail: your password stays as it is.',
      locale: 'en-GB',
    },
  },
  de: {
    invite: {
      subject: (m) => `Ihre Einladung zu ${m.organizationName} bei Foyer`,
      greeting: (m) => `Guten Tag ${m.fullName},`,
      body: (m) => `Sie wurden in das Foyer-Dashboard von ${m.organizationName} eingeladen. Öffnen Sie diesen Link, um Ihr Passwort festzulegen:`,
      button: 'Passwort festlegen',
      expires: (when) => `Der Link funktioniert einmal, bis ${when}.`,
      ignore: 'Wenn Sie keine Einladung erwartet haben, können Sie diese E-Mail ignorieren.',
      locale: 'de-DE',
    },
    reset: {
      subject: (m) => `Foyer-Passwort für ${m.organizationName} zurücksetzen`,
      greeting: (m) => `Guten Tag ${m.fullName},`,
      body: (m) => `jemand hat angefordert, Ihr Passwort für das Foyer-Dashboard von ${m.organizationName} zurückzusetzen. Öffnen Sie diesen Link, um ein neues zu wählen:`,
      button: 'Neues Passwort wählen',
      expires: (when) => `Der Link funktioniert einmal, bis ${when}.`,
      ignore: 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
      locale: 'de-DE',
    },
  },
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The mail for `mail`, in its language (English when it names none Foyer speaks). */
export function writeMemberMail(mail: MemberMail): WrittenMail {
  const lang: Lang = mail.lang === 'de' ? 'de' : 'en';
  const w = WORDS[lang][mail.kind];
  // Stated with its time zone: the member reads it wherever they are.
  const when = `${new Intl.DateTimeFormat(w.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(mail.expiresAt)} UTC`;
  const text = [w.greeting(mail), '', w.body(mail), '', mail.url, '', w.expires(when), '', w.ignore, '', '— Foyer', ''].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${e(w.subject(mail))}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1b1f24; max-width: 36em;">
<p>${e(w.greeting(mail))}</p>
<p>${e(w.body(mail))}</p>
<p><a href="${e(mail.url)}" style="display: inline-block; padding: 0.6em 1.2em; background: #2f6fe0; color: #ffffff; text-decoration: none; border-radius: 4px;">${e(w.button)}</a></p>
<p style="word-break: break-all; font-size: 0.9em;">${e(mail.url)}</p>
<p>${e(w.expires(when))}</p>
<p style="color: #555;">${e(w.ignore)}</p>
<p>— Foyer</p>
</body></html>
`;
  return { subject: w.subject(mail), text, html };
}
