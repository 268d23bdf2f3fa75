import type { FastifyInstance } from 'fastify';
import { PASSWORD_MAX_LENGTH } from '../../platform/auth/password.ts';
import { isAppError } from '../../platform/errors.ts';
import { ALL_ROLES, type ConsoleKit } from './kit.ts';
import { definePage } from '../../platform/web/page.ts';

/** Sign-in with email, password and the authenticator's code; sign-out; the console's home. */
export function registerConsoleAuthRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { operatorSignIn, sessions } = kit.deps;

  definePage(app, kit, { method: 'GET', path: '/console', need: ALL_ROLES }, async ({ reply }) => {
    return kit.redirect(reply, '/console/activation');
  });

  app.get('/console/sign-in', async (request, reply) => {
    if (await kit.current(request)) return kit.redirect(reply, '/console/activation');
    return kit.page(reply, 'sign-in', { title: 'Operator sign-in', csrf: kit.web.formToken(request, reply), values: {} });
  });

  app.post('/console/sign-in', async (request, reply) => {
    const f = kit.form(request, { email: { max: 254, label: 'Email' }, password: { max: PASSWORD_MAX_LENGTH, label: 'Password' }, code: { max: 10, label: 'Code' } });
    let operatorId: string;
    try {
      operatorId = (await operatorSignIn.authenticate({ email: f.email, password: f.password, code: f.code.replace(/\s/g, ''), ip: request.ip })).id;
    } catch (err) {
      if (!isAppError(err) || err.statusCode >= 500) throw err;
      // The service's own message: generic for any wrong part, or how long the throttle lasts.
      if (err.headers) reply.headers(err.headers);
      return kit.page(reply, 'sign-in', { title: 'Operator sign-in', csrf: kit.web.formToken(request, reply), error: err.message, values: { email: f.email } }, err.statusCode);
    }
    await kit.signIn(reply, operatorId);
    return kit.redirect(reply, '/console/activation');
  });

  app.post('/console/sign-out', async (request, reply) => {
    const current = await kit.current(request);
    if (current) {
      kit.form(request, {}, current);
      await sessions.end(current.sessionId);
    }
    kit.signOutCookie(reply);
    return kit.redirect(reply, '/console/sign-in');
  });
}
