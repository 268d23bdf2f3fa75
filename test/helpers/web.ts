import type { TestPlatform } from './harness.ts';
import { mailTo } from './outbox-read.ts';

export interface WebResponse {
  status: number;
  text: string;
  headers: Headers;
  location: string | null;
}

/** A browser stand-in for the dashboard: a cookie jar, forms posted with their CSRF token. */
export class WebClient {
  readonly cookies = new Map<string, string>();
  readonly base: string;
  private readonly reach: typeof fetch;

  /** An address (through its port), or a test platform (through `p.fetch`, in process when it has no socket). */
  constructor(target: string | Pick<TestPlatform, 'url' | 'fetch'>) {
    this.base = typeof target === 'string' ? target : target.url;
    this.reach = typeof target === 'string' ? fetch : target.fetch;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const [name, value] = [
        pair!.slice(0, pair!.indexOf('=')),
        pair!.slice(pair!.indexOf('=') + 1),
      ];
      if (value === '' || attrs.some((a) => a.trim() === 'Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    path: string,
    init: { body?: string | Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<WebResponse> {
    const send = () =>
      this.reach(`${this.base}${path}`, {
        method,
        redirect: 'manual',
        headers: { ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}), ...init.headers },
        body: init.body as BodyInit | undefined,
      });
    // As browsers do: a request that met a keep-alive connection the server had just closed (reset
    // before any answer; seen on loaded machines) is sent once more, on a new connection.
    const res = await send().catch((err: { cause?: { code?: string } }) => {
      if (err.cause?.code === 'ECONNRESET') return send();
      throw err;
    });
    this.remember(res.headers);
    return {
      status: res.status,
      text: await res.text(),
      headers: res.headers,
      location: res.headers.get('location'),
    };
  }

  get(path: string): Promise<WebResponse> {
    return this.request('GET', path);
  }

  /** Posts fields as a form, as a same-origin browser would (Origin set); pairs may repeat a name (checkboxes). */
  post(
    path: string,
    fields: Record<string, string> | Array<[string, string]>,
    headers: Record<string, string> = {},
  ): Promise<WebResponse> {
    return this.request('POST', path, {
      body: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.base,
        ...headers,
      },
    });
  }

  /** Opens `page`, then posts `fields` to `action` with the page's CSRF token. */
  async submit(page: string, action: string, fields: Record<string, string>): Promise<WebResponse> {
    const html = (await this.get(page)).text;
    return this.post(action, { _csrf: csrfOf(html), ...fields });
  }
}

export function csrfOf(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no CSRF token in the page: ${html.slice(0, 300)}`);
  return token;
}

/**
 * Waits until the mail worker has handled every message queued so far (sent it, or failed an
 * attempt): mail leaves in the background, moments after the change that queued it commits.
 */
export async function mailSettled(p: TestPlatform, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await p.app.platform.db.query<{ n: number }>(
      "select count(*)::int as n from mail_queue where status = 'pending' and last_error is null",
    );
    if (row!.n === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${row!.n} queued mail still unsent after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The newest link to `path` in the development outbox mailed to `to` (once the queued mail has left). */
export async function mailedLink(p: TestPlatform, to: string, path: string): Promise<string> {
  await mailSettled(p);
  for (const row of await mailTo(p, to)) {
    const link = new RegExp(`https?://[^\\s]+${path}/[A-Za-z0-9_-]+`).exec(row.body)?.[0];
    if (link) return new URL(link).pathname;
  }
  throw new Error(`no ${path} link mailed to ${to}`);
}

let counter = 0;
/** A fresh email per call, so tests sharing one platform never collide. */
export const newEmail = (name = 'member') =>
  `${name}.${Date.now().toString(36)}${counter++}@example.com`;

export const PASSWORD = 'correct horse battery';

/** Signs up, verifies by the mailed link and signs in: a verified owner with a partner. */
export async function verifiedOwner(
  p: TestPlatform,
  email = newEmail('owner'),
  partnerName = 'Adwoa Bakery',
): Promise<{ web: WebClient; email: string }> {
  const web = new WebClient(p);
  const signUp = await web.submit('/sign-up', '/sign-up', {
    email,
    password: PASSWORD,
    partner_name: partnerName,
  });
  if (signUp.status !== 200)
    throw new Error(`sign-up failed: ${signUp.status} ${signUp.text.slice(0, 500)}`);
  await web.get(await mailedLink(p, email, '/verify-email'));
  const signIn = await web.submit('/sign-in', '/sign-in', { email, password: PASSWORD });
  if (signIn.status !== 303)
    throw new Error(`sign-in failed: ${signIn.status} ${signIn.text.slice(0, 500)}`);
  return { web, email };
}

/** Creates an app and a staging key through the dashboard, reading the key and secret shown once. */
export async function dashboardKey(
  web: WebClient,
  appName = 'Shop app',
): Promise<{ appId: string; keyId: string; apiKey: string; signingSecret: string }> {
  const created = await web.submit('/dashboard/apps', '/dashboard/apps', { name: appName });
  const appId = /<code>(app_[0-9A-Z]{26})<\/code>/.exec(created.text)?.[1];
  if (!appId) throw new Error(`no app created: ${created.status} ${created.text.slice(0, 500)}`);
  const keyPage = await web.submit(`/dashboard/apps/${appId}`, `/dashboard/apps/${appId}/keys`, {});
  const apiKey = /id="api-key">([^<]+)</.exec(keyPage.text)?.[1];
  const signingSecret = /id="signing-secret">([^<]+)</.exec(keyPage.text)?.[1];
  const keyId = /keys\/(key_[0-9A-Z]{26})\/revoke/.exec(keyPage.text)?.[1];
  if (!apiKey || !signingSecret || !keyId) throw new Error(`no key shown: ${keyPage.status}`);
  return { appId, keyId, apiKey, signingSecret };
}

/** The owner invites `role`; the invitee accepts by the mailed link and is signed in. */
export async function invitedMember(
  p: TestPlatform,
  owner: WebClient,
  role: 'owner' | 'developer' | 'finance',
): Promise<WebClient> {
  const email = newEmail(role);
  const invite = await owner.submit('/dashboard/team', '/dashboard/team/invite', { email, role });
  if (invite.status >= 400)
    throw new Error(`invitation failed: ${invite.status} ${invite.text.slice(0, 300)}`);
  const link = await mailedLink(p, email, '/invitations');
  const web = new WebClient(p);
  await web.get(link);
  const accepted = await web.submit(link, link, { password: PASSWORD });
  if (accepted.location !== '/dashboard')
    throw new Error(`invitation not accepted: ${accepted.status} ${accepted.text.slice(0, 300)}`);
  return web;
}

/**
 * What most dashboard tests start from: a verified, signed-in owner of a new partner with one app
 * and its staging key (created through the dashboard), and the partner's id.
 */
export async function partnerDashboard(
  p: TestPlatform,
  partnerName = 'Adwoa Bakery',
  appName = 'Shop app',
) {
  const { web, email } = await verifiedOwner(p, newEmail('owner'), partnerName);
  const key = await dashboardKey(web, appName);
  const [row] = await p.app.platform.db.query<{ partner_id: string }>(
    'select partner_id from apps where id = $1',
    [key.appId],
  );
  return { web, email, partnerId: row!.partner_id, ...key };
}
