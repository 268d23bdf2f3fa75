import type { FastifyInstance } from 'fastify';
import { PASSWORD_MAX_LENGTH } from '../../platform/auth/password.ts';
import { isAppError } from '../../platform/errors.ts';
import { ALL_ROLES, type ConsoleKit } from './kit.ts';
import { definePage, signedInGate } from '../../platform/web/page.ts';

/** Sign-in with email, password and the authenticator's code; sign-out; the console's home. */
export function registerConsoleAuthRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { operatorSignIn, sessions } = kit.deps;

  definePage(app, kit, { method: 'GET', path: '/console', need: ALL_ROLES }, async ({ reply }) => {
    return kit.redirect(reply, '/console/activation');
  });

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/sign-in', need: 'public' },
    async ({ request, reply }) => {
      if (await kit.current(request)) return kit.redirect(reply, '/console/activation');
      return kit.page(reply, 'sign-in', {
        title: 'Operator sign-in',
        csrf: kit.web.formToken(request, reply),
        values: {},
      });
    },
  );

  const SIGN_IN = {
    email: { max: 254, label: 'Email' },
    password: { max: PASSWORD_MAX_LENGTH, label: 'Password' },
    code: { max: 10, label: 'Code' },
  };
  definePage(
    app,
    kit,
    { method: 'POST', path: '/console/sign-in', need: 'public', form: SIGN_IN },
    async ({ request, reply, form: f }) => {
      let operatorId: string;
      try {
        operatorId = (
          await operatorSignIn.authenticate({
            email: f.email,
            password: f.password,
            code: f.code.replace(/\s/g, ''),
            ip: request.ip,
          })
        ).id;
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        // The service's own message: generic for any wrong part, or how long the throttle lasts.
        if (err.headers) reply.headers(err.headers);
        return kit.page(
          reply,
          'sign-in',
          {
            title: 'Operator sign-in',
            csrf: kit.web.formToken(request, reply),
            error: err.message,
            values: { email: f.email },
          },
          err.statusCode,
        );
      }
      await kit.signIn(reply, operatorId);
      return kit.redirect(reply, '/console/activation');
    },
  );

  definePage(
    app,
    signedInGate(kit, '/console/sign-in'),
    { method: 'POST', path: '/console/sign-out', need: 'signed-in' },
    async ({ reply, actor: current }) => {
      await sessions.end(current.sessionId);
      kit.signOutCookie(reply);
      return kit.redirect(reply, '/console/sign-in');
    },
  );
}
