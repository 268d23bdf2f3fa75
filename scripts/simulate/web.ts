import { randomUUID } from 'node:crypto';

/** The courier app as a phone runs it: a cookie jar, its forms, its JSON actions and its event stream. */
export class CourierPhone {
  private readonly cookies = new Map<string, string>();
  private csrf = '';

  constructor(readonly base: string) {}

  private cookieHeader(): Record<string, string> {
    return this.cookies.size
      ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      : {};
  }

  private remember(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, body?: string, type?: string) {
    const send = () =>
      fetch(`${this.base}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          ...this.cookieHeader(),
          origin: this.base,
          ...(type ? { 'content-type': type } : {}),
          ...(method === 'POST' && type?.includes('json') ? { 'x-csrf-token': this.csrf } : {}),
        },
        body,
      });
    // As a browser does: a keep-alive connection the server had just closed is tried once more.
    const res = await send().catch((err: { cause?: { code?: string } }) => {
      if (err.cause?.code === 'ECONNRESET') return send();
      throw err;
    });
    this.remember(res.headers);
    return { status: res.status, text: await res.text() };
  }

  /** Asks for a sign-in code by text message (the sign-in page's form, with its token). */
  async requestCode(phone: string): Promise<void> {
    await this.request('GET', '/courier/sign-in');
    const form = new URLSearchParams({ _csrf: this.cookies.get('pp_form') ?? '', phone });
    const res = await this.request(
      'POST',
      '/courier/sign-in',
      form.toString(),
      'application/x-www-form-urlencoded',
    );
    if (res.status !== 200) throw new Error(`sign-in code refused: ${res.status}`);
  }

  /** Enters the texted code; then reads the home page's CSRF token for the app's actions. */
  async enterCode(phone: string, code: string): Promise<void> {
    const form = new URLSearchParams({ _csrf: this.cookies.get('pp_form') ?? '', phone, code });
    const res = await this.request(
      'POST',
      '/courier/sign-in/code',
      form.toString(),
      'application/x-www-form-urlencoded',
    );
    if (res.status !== 303)
      throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 200)}`);
    const home = await this.request('GET', '/courier/');
    const csrf = /data-csrf="([^"]+)"/.exec(home.text)?.[1];
    if (!csrf) throw new Error('no CSRF token on the courier home page');
    this.csrf = csrf;
  }

  /** One action through POST /courier/actions, as the app's queue sends it (a fresh UUID each). */
  async act(
    kind: string,
    at: number,
    payload: Record<string, unknown> = {},
  ): Promise<{ result: string; stage?: string | null; reason?: string }> {
    const body = JSON.stringify({
      id: randomUUID(),
      kind,
      at: new Date(at).toISOString(),
      payload,
    });
    const res = await this.request('POST', '/courier/actions', body, 'application/json');
    if (res.status !== 200)
      throw new Error(`action ${kind}: ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text);
  }

  /** The app's polling fallback: GET /courier/job. */
  async job(): Promise<LiveJob> {
    const res = await this.request('GET', '/courier/job');
    if (res.status !== 200) throw new Error(`job: ${res.status}`);
    return JSON.parse(res.text) as LiveJob;
  }

  /**
   * Follows GET /courier/events until `stop` aborts: each `job` event is handed to `onJob`. A stream
   * the server ends (a heartbeat's session check, a restart) is opened again with Last-Event-ID.
   */
  async follow(onJob: (job: LiveJob) => void, stop: AbortSignal): Promise<void> {
    let lastId: string | undefined;
    while (!stop.aborted) {
      try {
        const res = await fetch(`${this.base}/courier/events`, {
          headers: {
            accept: 'text/event-stream',
            ...this.cookieHeader(),
            ...(lastId ? { 'last-event-id': lastId } : {}),
          },
          signal: stop,
        });
        if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
        for await (const event of readEvents(res.body)) {
          lastId = event.id ?? lastId;
          if (event.event === 'job') onJob(JSON.parse(event.data) as LiveJob);
        }
      } catch (err) {
        if (stop.aborted) return;
        void err;
      }
      if (!stop.aborted) await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** What the courier app is told of its offer or job (src/web/courier/live.ts). */
export type LiveJob =
  | { kind: 'none' }
  | { kind: 'offer' | 'job'; order_id: string; stage: string | null; expires_at: string | null };

async function* readEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<{ id: string | undefined; event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        if (!line || line.startsWith(':')) continue;
        const at = line.indexOf(':');
        fields.set(line.slice(0, at), line.slice(at + 1).trimStart());
      }
      const data = fields.get('data');
      if (data !== undefined)
        yield { id: fields.get('id'), event: fields.get('event') ?? 'message', data };
    }
  }
}
