import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { injectFetch } from '../../helpers/inject-fetch.ts';

// Tests that start their app without a socket trust injectFetch to answer as the port would.
let p: TestPlatform;
let inProcess: typeof fetch;
beforeAll(async () => {
  p = await startPlatform();
  inProcess = injectFetch(p.app);
});
afterAll(() => p.close());

// Made afresh for every request: request ids, CSRF tokens, script nonces.
const fresh = (text: string) =>
  text
    .replace(/req_[0-9A-Z]{26}/g, 'req_*')
    .replace(/[\w-]{43}/g, '*')
    .replace(/'nonce-[^']+'/g, '*');

/** What a test can read of an answer, apart from what is made afresh for each request. */
async function seen(res: Response) {
  const headers = Object.fromEntries(
    [...res.headers]
      .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))
      .map(([name, value]) => [name, fresh(value)]),
  );
  const text = fresh(await res.text());
  return { status: res.status, headers, cookies: res.headers.getSetCookie().length, text };
}

describe('injectFetch', () => {
  const both = async (path: string, init: RequestInit = {}) => {
    const [socket, inject] = [
      await seen(await fetch(`${p.url}${path}`, init)),
      await seen(await inProcess(`${p.url}${path}`, init)),
    ];
    expect(inject).toEqual(socket);
    return inject;
  };

  it('answers a GET, a 404 and a HEAD as the port does', async () => {
    expect((await both('/healthz')).status).toBe(200);
    expect((await both('/no-such-page?x=1')).status).toBe(404);
    const head = await both('/healthz', { method: 'HEAD' });
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it('hands over a redirect without following it, and the cookies a page sets', async () => {
    const redirect = await both('/console', { redirect: 'manual' });
    expect(redirect.status).toBeGreaterThanOrEqual(300);
    expect(redirect.status).toBeLessThan(400);
    expect(redirect.headers.location).toBeTruthy();
    const page = await both('/sign-in');
    expect(page.status).toBe(200);
  });

  it('sends a JSON body with its headers, and a refusal with its code', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const refused = await both('/admin/v1/partners', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: '' }),
    });
    expect(refused.status).toBe(400);
    const created = await inProcess(`${p.url}/admin/v1/partners`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'In process' }),
    });
    expect(created.status).toBe(201);
    const { partner_id } = (await created.json()) as { partner_id: string };
    const read = await both(`/admin/v1/partners/${partner_id}`, { headers: auth });
    expect(JSON.parse(read.text).name).toBe('In process');
  });
});
