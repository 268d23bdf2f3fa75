import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readAction } from '../../modules/couriers/index.ts';
import { MAX_PROOF_BYTES } from '../../modules/proof/index.ts';
import { hashSessionId } from '../../modules/sessions/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { crossSiteProblem, tokensMatch } from '../../platform/web/csrf.ts';
import type { CourierCurrent, CourierKit } from './kit.ts';
import { ICON_SVG, manifest, serviceWorker } from './pwa.ts';

export const json = (reply: FastifyReply, status: number, body: unknown) =>
  reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(body));

/** A request from the courier app's script: a signed-in courier, sent from our origin with the session's CSRF token. */
export async function appRequest(
  kit: CourierKit,
  request: FastifyRequest,
  publicOrigin: string,
): Promise<
  | { current: CourierCurrent }
  | { refused: { status: number; body: { error: string; code: string } } }
> {
  const current = await kit.current(request);
  if (!current)
    return { refused: { status: 401, body: { error: 'Sign in again.', code: 'SIGNED_OUT' } } };
  const headers = request.headers as Record<string, string | undefined>;
  if (
    crossSiteProblem(headers, publicOrigin) ||
    !tokensMatch(headers['x-csrf-token'], current.session.csrfToken)
  ) {
    return {
      refused: {
        status: 403,
        body: {
          error: 'This request was not sent by the courier app. Reload the page.',
          code: 'CSRF_FAILED',
        },
      },
    };
  }
  return { current };
}

/** The app script's JSON body, or the answer refusing it (415 when it is no JSON, 400 when it does not parse). */
export function jsonBody(
  request: FastifyRequest,
  notJson: string,
): { value: unknown } | { refused: { status: number; body: { error: string } } } {
  const headers = request.headers as Record<string, string | undefined>;
  if (!/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? ''))
    return { refused: { status: 415, body: { error: notJson } } };
  try {
    return {
      value: JSON.parse(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : ''),
    };
  } catch {
    return { refused: { status: 400, body: { error: 'The body is not JSON.' } } };
  }
}

/** Sign-in with a code by text message, sign-out, the home page, the action endpoint, the PWA files. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerCourierRoutes(
  app: FastifyInstance,
  kit: CourierKit,
  publicOrigin: string,
): void {
  const { signIn, sessions, actions } = kit.deps;

  app.get('/courier', async (_request, reply) => kit.web.redirect(reply, '/courier/'));

  app.get('/courier/', async (request, reply) => {
    const current = await kit.current(request);
    if (!current) return kit.web.redirect(reply, '/courier/sign-in');
    const job = await kit.deps.job?.(current.courier.id);
    const pesewas =
      job && (job.fee_pesewas === undefined ? job.sheet.fee_pesewas : job.fee_pesewas);
    const fee = pesewas == null ? undefined : `GH₵ ${(pesewas / 100).toFixed(2)}`;
    return kit.page(reply, 'home', {
      title: 'Home',
      app: true,
      courier: current.courier,
      csrf: current.session.csrfToken,
      job,
      fee,
      maxProofBytes: MAX_PROOF_BYTES,
      live: Boolean(kit.deps.jobChanges),
      pushKey: kit.deps.jobChanges ? kit.deps.push?.publicKey : undefined,
    });
  });

  app.get('/courier/sign-in', async (request, reply) => {
    if (await kit.current(request)) return kit.web.redirect(reply, '/courier/');
    return kit.page(reply, 'sign-in', {
      title: 'Sign in',
      csrf: kit.web.formToken(request, reply),
    });
  });

  app.post('/courier/sign-in', async (request, reply) => {
    const f = kit.web.form(request, { phone: { max: 20, label: 'Phone' } });
    const csrf = kit.web.formToken(request, reply);
    try {
      const { phone } = await signIn.requestCode(f.phone, request.ip);
      return kit.page(reply, 'code', { title: 'Enter your code', csrf, phone });
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      if (err.headers) reply.headers(err.headers);
      return kit.page(
        reply,
        'sign-in',
        { title: 'Sign in', csrf, error: err.message, phone: f.phone },
        err.statusCode,
      );
    }
  });

  app.post('/courier/sign-in/code', async (request, reply) => {
    const f = kit.web.form(request, {
      phone: { max: 20, label: 'Phone' },
      code: { max: 10, label: 'Code' },
    });
    try {
      const courier = await signIn.verify(f.phone, f.code);
      await kit.signIn(reply, courier.id);
      return kit.web.redirect(reply, '/courier/');
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      return kit.page(
        reply,
        'code',
        {
          title: 'Enter your code',
          csrf: kit.web.formToken(request, reply),
          phone: f.phone,
          error: err.message,
        },
        err.statusCode,
      );
    }
  });

  app.post('/courier/sign-out', async (request, reply) => {
    const current = await kit.current(request);
    if (current) {
      kit.web.form(request, {}, current);
      // A signed-out phone is told of no more offers.
      await kit.deps.push?.subscriptions.remove(hashSessionId(current.sessionId));
      await sessions.end(current.sessionId);
    }
    kit.signOutCookie(reply);
    return kit.web.redirect(reply, '/courier/sign-in');
  });

  app.post('/courier/actions', async (request: FastifyRequest, reply) => {
    const checked = await appRequest(kit, request, publicOrigin);
    if ('refused' in checked) return json(reply, checked.refused.status, checked.refused.body);
    const { current } = checked;
    const body = jsonBody(request, 'Actions are JSON.');
    if ('refused' in body) return json(reply, body.refused.status, body.refused.body);
    const read = readAction(body.value);
    if ('problem' in read) return json(reply, 400, { error: read.problem });
    return json(reply, 200, await actions.apply(current.courier.id, read.action));
  });

  app.get('/courier/manifest.webmanifest', async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .type('application/manifest+json')
      .send(manifest()),
  );
  app.get('/courier/icon.svg', async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .type('image/svg+xml')
      .send(ICON_SVG),
  );
  const sw = serviceWorker([
    '/courier/',
    kit.assets.css,
    kit.assets.js,
    kit.assets.proof,
    kit.assets.live,
    kit.assets.push,
    '/courier/manifest.webmanifest',
    '/courier/icon.svg',
  ]);
  app.get('/courier/sw.js', async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('service-worker-allowed', '/courier/')
      .type('text/javascript; charset=utf-8')
      .send(sw),
  );
}
