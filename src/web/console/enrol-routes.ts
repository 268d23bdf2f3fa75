import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_MAX_LENGTH } from '../../platform/auth/password.ts';
import { isAppError } from '../../platform/errors.ts';
import { readCookie, serializeCookie } from '../../platform/web/cookies.ts';
import { definePage, signedInGate } from '../../platform/web/page.ts';
import { unlessMissing, type ConsoleKit } from './kit.ts';

/**
 * Its own cookie, never read by ConsoleKit.current: an enrolment session opens no console page. It
 * only carries the operator from the password step to the confirmation, and ends there.
 */
const ENROL_COOKIE = 'pp_console_enrol';
const ENROL_MAX_AGE_S = 15 * 60;

/**
 * TOTP enrolment in the browser for an operator with a password but no confirmed authenticator:
 * password first (OperatorSignIn.passwordForEnrolment, throttled like sign-in), then the secret and
 * otpauth URI shown once (enrolTotp) and a first code to confirm (confirmTotp). Then a normal sign-in.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleEnrolRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { operatorSignIn, operators, sessions, audit } = kit.deps;
  const cookie = (id: string, maxAge: number) =>
    serializeCookie(ENROL_COOKIE, id, { secure: kit.web.secure, maxAge });

  /** The operator of a live enrolment session who is still active and unconfirmed, with the session. */
  async function enrolling(request: FastifyRequest) {
    const id = readCookie(request.headers.cookie, ENROL_COOKIE);
    const session = id ? await sessions.find(id) : undefined;
    if (!id || session?.subject.kind !== 'operator') return undefined;
    const operator = await unlessMissing(operators.get(session.subject.id));
    if (!operator?.active || operator.totp_confirmed) return undefined;
    return { id, session, operator };
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/enrol', need: 'public' },
    async ({ request, reply }) => {
      return kit.page(reply, 'enrol', {
        title: 'Enrol an authenticator',
        csrf: kit.web.formToken(request, reply),
        values: {},
      });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/enrol',
      need: 'public',
      form: {
        email: { max: 254, label: 'Email' },
        password: { max: PASSWORD_MAX_LENGTH, label: 'Password' },
      },
    },
    async ({ request, reply, form: f }) => {
      let operatorId: string;
      try {
        operatorId = (
          await operatorSignIn.passwordForEnrolment({
            email: f.email,
            password: f.password,
            ip: request.ip,
          })
        ).id;
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        if (err.headers) reply.headers(err.headers);
        return kit.page(
          reply,
          'enrol',
          {
            title: 'Enrol an authenticator',
            csrf: kit.web.formToken(request, reply),
            error: err.message,
            values: { email: f.email },
          },
          err.statusCode,
        );
      }
      const { secret, otpauthUri } = await operatorSignIn.enrolTotp(operatorId);
      const started = await sessions.start({ kind: 'operator', id: operatorId });
      reply.header('set-cookie', cookie(started.id, ENROL_MAX_AGE_S));
      reply.header('cache-control', 'no-store');
      return kit.page(reply, 'enrol-confirm', {
        title: 'Confirm your authenticator',
        csrf: started.session.csrfToken,
        secret,
        otpauthUri,
      });
    },
  );

  // The confirmation's gate is the enrolment session (its own cookie and token); without one, back to the start.
  const enrolment = signedInGate(
    {
      current: enrolling,
      form: (request, rules, actor) => kit.web.form(request, rules, actor),
      redirect: (reply, to) => kit.redirect(reply, to),
      signOutCookie: (reply) => reply.header('set-cookie', cookie('', 0)),
    },
    '/console/enrol',
  );
  definePage(
    app,
    enrolment,
    {
      method: 'POST',
      path: '/console/enrol/confirm',
      need: 'signed-in',
      form: { code: { max: 10, label: 'Code' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      try {
        await operatorSignIn.confirmTotp(current.operator.id, f.code.replace(/\s/g, ''));
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        // The secret is not shown again: a wrong code is typed again from the same authenticator.
        return kit.page(
          reply,
          'enrol-confirm',
          {
            title: 'Confirm your authenticator',
            csrf: current.session.csrfToken,
            error: err.message,
          },
          err.statusCode,
        );
      }
      await audit.record({
        actor: { kind: 'operator', id: current.operator.id },
        action: 'operator.totp_confirm',
        target: { type: 'operator', id: current.operator.id },
        after: { totp_confirmed: true },
        origin: kit.origin(request),
      });
      await sessions.end(current.id);
      reply.header('set-cookie', cookie('', 0));
      return kit.redirect(reply, '/console/sign-in?enrolled=1');
    },
  );
}
