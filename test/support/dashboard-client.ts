/**
 * @module test/support/dashboard-client
 * A visitor of the dashboard over plain HTTP, as a browser would be without
 * JavaScript: it keeps cookies per path, reads the CSRF token out of the
 * page's forms and posts forms as application/x-www-form-urlencoded. Never
 * follows redirects, so tests see each step.
 */
import { operatorActor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { issueMemberLink } from '../../src/domain/member-links.ts';
import type { Organization } from '../../src/domain/types.ts';

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** Location of a redirect, as a path. */
  location: string | undefined;
}

interface Cookie {
  value: string;
  path: string;
}

export class DashboardClient {
  private readonly cookies = new Map<string, Cookie>();
  /** The CSRF token of the last page that had a form. */
  csrf: string | undefined;

  constructor(readonly origin: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  setCookie(name: string, value: string, path = '/'): void {
    this.cookies.set(name, { value, path });
  }

  forgetCookie(name: string): void {
    this.cookies.delete(name);
  }

  private header(path: string): string {
    return [...this.cookies]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      if (expired || value === '') this.cookies.delete(name!);
      else this.cookies.set(name!, { value, path });
    }
  }

  private async send(path: string, init: RequestInit): Promise<Page> {
    const headers = new Headers(init.headers);
    const cookie = this.header(path);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(this.origin + path, { ...init, headers, redirect: 'manual' });
    this.remember(response);
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    const location = response.headers.get('location') ?? undefined;
    return { status: response.status, headers: response.headers, text, location: location && new URL(location, this.origin).pathname + new URL(location, this.origin).search };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.send(path, { method: 'GET', headers });
  }

  /** Posts a form, with the CSRF token of the last page unless `_csrf` is given (or null to send none). */
  post(path: string, form: Record<string, string | string[] | null>, headers: Record<string, string> = {}): Promise<Page> {
    return this.submit('POST', path, form, headers);
  }

  /** Sends a form with any method (a route table may hold more than GET and POST). */
  submit(method: string, path: string, form: Record<string, string | string[] | null>, headers: Record<string, string> = {}): Promise<Page> {
    const body = new URLSearchParams();
    const fields = { _csrf: this.csrf ?? null, ...form };
    for (const [key, value] of Object.entries(fields)) {
      if (value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    }
    return this.send(path, { method, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: body.toString() });
  }
}

/** The path of a member's invitation link, as the operator would hand it out. */
export async function invitationPath(ctx: DomainContext, org: Organization, email: string): Promise<string> {
  const { url } = await issueMemberLink(ctx, operatorActor(org), email, 'invite');
  return new URL(url).pathname;
}

/** A member with a password, signed in: the client holds the session. */
export async function signedIn(origin: string, ctx: DomainContext, org: Organization, email: string, password = 'a long enough passphrase'): Promise<DashboardClient> {
  const client = new DashboardClient(origin);
  const link = await invitationPath(ctx, org, email);
  await client.get(link);
  const set = await client.post(link, { password, confirm: password });
  if (set.status !== 303) throw new Error(`setting the password answered ${set.status}: ${set.text.slice(0, 300)}`);
  await client.get('/dashboard/sign-in');
  const signIn = await client.post('/dashboard/sign-in', { email, password, next: '/dashboard' });
  if (signIn.status !== 303) throw new Error(`signing in answered ${signIn.status}`);
  return client;
}
