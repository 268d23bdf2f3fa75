import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepRawBodies } from '../../../src/platform/http/body.ts';
import { crossSiteProblem, CSRF_FIELD, tokensMatch } from '../../../src/platform/web/csrf.ts';
import { parseForm, type FieldRule } from '../../../src/platform/web/form.ts';
import {
  definePage,
  idParam,
  signedInGate,
  type PageGate,
} from '../../../src/platform/web/page.ts';
import { WebRefusal } from '../../../src/platform/web/refusal.ts';
import { refusal } from '../../../src/web/dashboard/index.ts';

/**
 * definePage itself, on a bare Fastify app with a gate of its own (no database): who may open a
 * page, its ids, its CSRF token and its fields are checked before the handler runs, each refusal
 * answered as the page's 4xx, never a 5xx, and a refused form changes nothing.
 */
type Who = { name: string; roles: string[]; token: string };
const PEOPLE: Record<string, Who> = {
  ama: { name: 'Ama', roles: ['support'], token: 'tok-ama' },
  kofi: { name: 'Kofi', roles: ['finance'], token: 'tok-kofi' },
};
const ORIGIN = 'https://pages.test';
const PARTNER = 'ptn_01JABCDEFGHJKMNPQRSTVWXYZ0';

const whoIs = async (request: FastifyRequest) => PEOPLE[String(request.headers['x-who'])];
const gate: PageGate<Who, readonly string[]> & {
  current: typeof whoIs;
  redirect(reply: FastifyReply, to: string): unknown;
  signOutCookie(reply: FastifyReply): void;
} = {
  current: whoIs,
  async admit(request, reply, roles) {
    const who = await whoIs(request);
    if (!who) {
      reply.code(303).header('location', '/sign-in').send();
      return undefined;
    }
    if (!who.roles.some((r) => roles.includes(r)))
      throw new WebRefusal(403, `Your roles (${who.roles.join(', ')}) do not allow this.`);
    return who;
  },
  form<R extends Record<string, FieldRule>>(request: FastifyRequest, rules: R, who?: Who) {
    if (crossSiteProblem(request.headers as Record<string, string | undefined>, ORIGIN))
      throw new WebRefusal(403, 'Sent from another site.');
    const { [CSRF_FIELD]: token } = parseForm(request.body, request.headers['content-type'], {
      [CSRF_FIELD]: { max: 128 },
    });
    if (!tokensMatch(token, who?.token ?? 'tok-signed-out'))
      throw new WebRefusal(403, 'This form has expired.');
    return parseForm(request.body, request.headers['content-type'], rules);
  },
  redirect: (reply, to) => reply.code(303).header('location', to).send(),
  signOutCookie: (reply) => reply.header('set-cookie', 'who=; Max-Age=0'),
};

describe('definePage', () => {
  let app: FastifyInstance;
  const limits = new Map<string, string>();
  const ran: string[] = [];

  beforeAll(async () => {
    app = Fastify();
    keepRawBodies(app, 32 * 1024);
    app.setErrorHandler((err, request, reply) => {
      const known = refusal(err, request);
      return reply
        .code(known?.status ?? 500)
        .type('text/html')
        .send(`<p>${known?.message ?? 'broken'}</p>`);
    });
    const partner = { id: idParam('ptn', 'There is no such partner.') };
    definePage(
      app,
      gate,
      {
        method: 'GET',
        path: '/partners/:id',
        need: ['support', 'finance'],
        params: partner,
        query: { after: { prefix: 'ptn', invalid: 'That page link is not valid.' } },
      },
      async ({ reply, actor, params, query }) => {
        ran.push(`read ${params.id}`);
        return reply
          .type('text/html')
          .send(
            `<p>${actor.name} reads ${params.id}${query.after ? ` after ${query.after}` : ''}: ${limits.get(params.id) ?? 'defaults'}</p>`,
          );
      },
    );
    definePage(
      app,
      gate,
      {
        method: 'POST',
        path: '/partners/:id/limit',
        need: ['support'],
        params: partner,
        form: { limit: { max: 7, label: 'Limit' } },
      },
      async ({ reply, actor, params, form }) => {
        limits.set(params.id, form.limit);
        return reply.type('text/html').send(`<p>${actor.name} set ${form.limit}</p>`);
      },
    );
    definePage(
      app,
      gate,
      {
        method: 'POST',
        path: '/contact',
        need: 'public',
        form: { message: { max: 20, label: 'Message' } },
      },
      async ({ reply, actor, form }) => {
        return reply
          .type('text/html')
          .send(`<p>${actor === undefined ? 'anyone' : 'someone'} said ${form.message}</p>`);
      },
    );
    definePage(
      app,
      signedInGate(gate, '/sign-in'),
      { method: 'POST', path: '/sign-out', need: 'signed-in' },
      async ({ reply, actor }) => reply.send(`bye ${actor.name}`),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string, who?: string) =>
    app.inject({ method: 'GET', url, headers: who ? { 'x-who': who } : {} });
  const post = (
    url: string,
    body: Record<string, string>,
    who?: string,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(body).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(who ? { 'x-who': who } : {}),
        ...headers,
      },
    });

  it('admits a person holding one of the roles, with the typed id and query, and sends everyone else to sign-in', async () => {
    const page = await get(`/partners/${PARTNER}?after=${PARTNER}`, 'kofi');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Kofi reads ${PARTNER} after ${PARTNER}: defaults`);
    const anonymous = await get(`/partners/${PARTNER}`);
    expect([anonymous.statusCode, anonymous.headers.location]).toEqual([303, '/sign-in']);
  });

  it('answers a role the page does not allow with the 403 page, before the handler or the form is read', async () => {
    const before = ran.length;
    const res = await post(`/partners/${PARTNER}/limit`, { _csrf: 'tok-kofi', limit: '5' }, 'kofi');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Your roles (finance) do not allow this.');
    expect(limits.has(PARTNER)).toBe(false);
    expect(ran.length).toBe(before);
  });

  it('answers a malformed id with the page’s 404 and a malformed query id with a 400, never a 5xx', async () => {
    for (const id of [
      'ptn_short',
      'app_01JABCDEFGHJKMNPQRSTVWXYZ0',
      'ptn_01jabcdefghjkmnpqrstvwxyz0',
      `${PARTNER}x`,
      "ptn_' or 1=1 --",
    ]) {
      const res = await get(`/partners/${encodeURIComponent(id)}`, 'ama');
      expect([res.statusCode, res.body], id).toEqual([404, '<p>There is no such partner.</p>']);
    }
    for (const after of ['nope', 'ptn_1', `after=${PARTNER}&after=${PARTNER}`]) {
      const res = await get(
        `/partners/${PARTNER}?after=${after.startsWith('after=') ? `${PARTNER}&${after}` : after}`,
        'ama',
      );
      expect([res.statusCode, res.body], after).toEqual([
        400,
        '<p>That page link is not valid.</p>',
      ]);
    }
    const bad = await post('/partners/ptn_nope/limit', { _csrf: 'tok-ama', limit: '5' }, 'ama');
    expect(bad.statusCode).toBe(404);
    expect(limits.size).toBe(0);
  });

  it('refuses a missing, wrong or other person’s CSRF token, and a cross-site post, changing nothing', async () => {
    const url = `/partners/${PARTNER}/limit`;
    for (const [body, headers] of [
      [{ limit: '5' }, {}],
      [{ _csrf: 'tok-wrong', limit: '5' }, {}],
      [{ _csrf: 'tok-kofi', limit: '5' }, {}],
      [
        { _csrf: 'tok-ama', limit: '5' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      ],
    ] as const) {
      const res = await post(url, body, 'ama', headers);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
    }
    expect(limits.has(PARTNER)).toBe(false);
    // A public form carries the signed-out token, whoever is signed in.
    expect((await post('/contact', { _csrf: 'tok-ama', message: 'hi' }, 'ama')).statusCode).toBe(
      403,
    );
    const contact = await post('/contact', { _csrf: 'tok-signed-out', message: 'hi' }, 'ama');
    expect([contact.statusCode, contact.body]).toEqual([200, '<p>anyone said hi</p>']);
  });

  it('answers a bad field with the form’s own 400 sentence, changing nothing; a good one reaches the handler typed', async () => {
    const url = `/partners/${PARTNER}/limit`;
    const long = await post(url, { _csrf: 'tok-ama', limit: '12345678' }, 'ama');
    expect([long.statusCode, long.body]).toEqual([
      400,
      '<p>“Limit” is too long (at most 7 characters).</p>',
    ]);
    const twice = await app.inject({
      method: 'POST',
      url,
      payload: '_csrf=tok-ama&limit=1&limit=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-who': 'ama' },
    });
    expect([twice.statusCode, twice.body]).toEqual([
      400,
      '<p>The field “Limit” was sent more than once.</p>',
    ]);
    const json = await app.inject({
      method: 'POST',
      url,
      payload: { _csrf: 'tok-ama', limit: '5' },
      headers: { 'x-who': 'ama' },
    });
    expect(json.statusCode).toBe(415);
    expect(limits.has(PARTNER)).toBe(false);
    const ok = await post(url, { _csrf: 'tok-ama', limit: '500' }, 'ama');
    expect([ok.statusCode, ok.body]).toEqual([200, '<p>Ama set 500</p>']);
    expect(limits.get(PARTNER)).toBe('500');
  });

  it('sends a signed-out visitor of a signed-in page to sign-in, forgetting the cookie, and checks the token of one who is signed in', async () => {
    const out = await post('/sign-out', {});
    expect([out.statusCode, out.headers.location, out.headers['set-cookie']]).toEqual([
      303,
      '/sign-in',
      'who=; Max-Age=0',
    ]);
    expect((await post('/sign-out', {}, 'kofi')).statusCode).toBe(403);
    expect((await post('/sign-out', { _csrf: 'tok-kofi' }, 'kofi')).body).toBe('bye Kofi');
  });
});
