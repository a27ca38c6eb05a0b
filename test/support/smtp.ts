/**
 * @module test/support/smtp
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 that keeps
 * every mail it receives, decoded enough for tests to read: the envelope,
 * the subject, the plain-text and HTML parts (quoted-printable and base64
 * undone), and the first link to Foyer in them.
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:PORT`, for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the `count`-th mail (1-based) once it has arrived. */
  nth(count: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? /^[0-9A-Fa-f]{2}$/.exec(joined.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_w, _charset, kind: string, data: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
  );
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
  }
  return headers;
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body).toString('utf8');
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The text and HTML parts of a (possibly multipart) message. */
function parts(raw: string): { headers: Map<string, string>; text: string; html: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = headersOf(raw.slice(0, split));
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) {
    const decoded = decodeBody(headers, body);
    return type.startsWith('text/html') ? { headers, text: '', html: decoded } : { headers, text: decoded, html: '' };
  }
  let text = '';
  let html = '';
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const inner = parts(part.replace(/^\r?\n/, ''));
    text ||= inner.text;
    html ||= inner.html;
  }
  return { headers, text, html };
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no TLS to offer, no login to ask for.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers, text, html } = parts(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeHeader(headers.get('subject') ?? ''),
          text,
          html,
          raw,
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address !== 'object') throw new Error('SMTP server has no address');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    async nth(count) {
      while (mails.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return mails[count - 1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one-time password link in a mail's text, as a path. */
export function passwordLinkPath(mail: ReceivedMail): string {
  const url = /https?:\/\/\S+\/dashboard\/password\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!url) throw new Error(`no password link in the mail: ${mail.text}`);
  return new URL(url).pathname;
}
