/**
 * @module mail/smtp-mailer
 * The domain's `Mailer` over SMTP (nodemailer), made only when SMTP_URL is
 * set (see src/config.ts): without it no mailer exists, and nothing offers
 * or pretends to send mail.
 */
import nodemailer from 'nodemailer';
import type { MailConfig } from '../config.ts';
import type { Mailer } from '../domain/context.ts';
import { writeMemberMail } from './member-mail.ts';

/** One connection per mail (no pool): member mail is rare, and nothing is left open to close. */
export function createSmtpMailer(config: MailConfig): Mailer {
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async sendMemberMail(mail) {
      const written = writeMemberMail(mail);
      await transport.sendMail({ from: config.from, to: mail.to, subject: written.subject, text: written.text, html: written.html });
    },
  };
}
