import type { FastifyInstance, FastifyReply } from 'fastify';
import { PASSWORD_MAX_LENGTH } from '../../platform/auth/password.ts';
import { isAppError } from '../../platform/errors.ts';
import { definePage, OWN_CHECK, signedInGate } from '../../platform/web/page.ts';
import type { WebKit } from './kit.ts';

const EMAIL = { max: 254, label: 'Email' };
const PASSWORD = { max: PASSWORD_MAX_LENGTH, label: 'Password' };
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Runs a service call; a problem the person can fix (4xx) is shown on the form again, anything else is thrown. */
async function orShow(
  reply: FastifyReply,
  action: () => Promise<unknown>,
  show: (message: string, status: number) => FastifyReply,
): Promise<FastifyReply | undefined> {
  try {
    await action();
    return undefined;
  } catch (err) {
    if (isAppError(err) && err.statusCode < 500) {
      if (err.headers) reply.headers(err.headers);
      return show(err.message, err.statusCode);
    }
    throw err;
  }
}

/** Only a path inside the dashboard, so that a crafted link cannot send a signed-in person elsewhere. */
function safeNext(next: string | undefined): string {
  return next && /^\/dashboard(\/[A-Za-z0-9_/?=&%.-]*)?$/.test(next) ? next : '/dashboard';
}

/** Sign-up, email verification, sign-in and out, password reset. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerAuthRoutes(app: FastifyInstance, web: WebKit): void {
  const { members, sessions } = web.deps;
  const signedIn = signedInGate(web, '/sign-in');
  const token = { token: OWN_CHECK };

  definePage(
    app,
    web,
    { method: 'GET', path: '/sign-up', need: 'public' },
    async ({ request, reply }) => {
      if ((await web.current(request))?.member.email_verified_at)
        return web.redirect(reply, '/dashboard');
      return web.page(reply, 'sign-up', {
        title: 'Sign up',
        csrf: web.formToken(request, reply),
        values: {},
      });
    },
  );
  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/sign-up',
      need: 'public',
      form: {
        email: EMAIL,
        password: PASSWORD,
        partner_name: { max: 120, label: 'Business name' },
      },
    },
    async ({ request, reply, form: f }) => {
      const show = (error: string, status: number) =>
        web.page(
          reply,
          'sign-up',
          {
            title: 'Sign up',
            csrf: web.formToken(request, reply),
            error,
            values: { email: f.email, partner_name: f.partner_name },
          },
          status,
        );
      const problem = await orShow(
        reply,
        () => members.signUp({ email: f.email, password: f.password, partnerName: f.partner_name }),
        show,
      );
      return (
        problem ??
        web.page(reply, 'check-mail', { title: 'Check your mail', email: f.email.trim() })
      );
    },
  );

  definePage(
    app,
    web,
    { method: 'GET', path: '/verify-email/:token', need: 'public', params: token },
    async ({ request, reply }) => {
      const ok =
        TOKEN.test(request.params.token) && (await members.verifyEmail(request.params.token));
      const signedIn = (await web.current(request)) !== undefined;
      return web.page(
        reply,
        'verified',
        { title: ok ? 'Email verified' : 'Link not valid', ok, signedIn },
        ok ? 200 : 400,
      );
    },
  );
  definePage(
    app,
    signedIn,
    { method: 'POST', path: '/dashboard/verify-email/resend', need: 'signed-in' },
    async ({ reply, actor: current }) => {
      const show = (error: string, status: number) =>
        web.page(
          reply,
          'verify-email',
          { title: 'Verify your email', email: current.member.email, error },
          status,
        );
      const problem = await orShow(
        reply,
        () => members.resendVerification(current.member.id),
        show,
      );
      return (
        problem ??
        web.page(reply, 'verify-email', {
          title: 'Verify your email',
          email: current.member.email,
          resent: true,
        })
      );
    },
  );

  definePage(
    app,
    web,
    { method: 'GET', path: '/sign-in', need: 'public' },
    async ({ request, reply }) => {
      const query = request.query as { next?: string; reset?: string };
      if (await web.current(request)) return web.redirect(reply, '/dashboard');
      const notice = query.reset === '1' ? 'Your password is changed: sign in with it.' : undefined;
      return web.page(reply, 'sign-in', {
        title: 'Sign in',
        csrf: web.formToken(request, reply),
        next: safeNext(query.next),
        notice,
        values: {},
      });
    },
  );
  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/sign-in',
      need: 'public',
      form: { email: EMAIL, password: PASSWORD, next: { max: 200 } },
    },
    async ({ request, reply, form: f }) => {
      const show = (error: string, status: number) =>
        web.page(
          reply,
          'sign-in',
          {
            title: 'Sign in',
            csrf: web.formToken(request, reply),
            next: safeNext(f.next),
            error,
            values: { email: f.email },
          },
          status,
        );
      let memberId = '';
      const problem = await orShow(
        reply,
        async () => (memberId = (await members.signIn(f.email, f.password, request.ip)).id),
        show,
      );
      if (problem) return problem;
      await web.signIn(reply, memberId);
      return web.redirect(reply, safeNext(f.next));
    },
  );

  definePage(
    app,
    signedIn,
    { method: 'POST', path: '/sign-out', need: 'signed-in' },
    async ({ reply, actor: current }) => {
      await sessions.end(current.sessionId);
      web.signOutCookie(reply);
      return web.redirect(reply, '/sign-in');
    },
  );
  definePage(
    app,
    signedIn,
    { method: 'POST', path: '/sign-out-everywhere', need: 'signed-in' },
    async ({ reply, actor: current }) => {
      await sessions.endAllFor({ kind: 'member', id: current.member.id });
      web.signOutCookie(reply);
      return web.redirect(reply, '/sign-in');
    },
  );

  definePage(
    app,
    web,
    { method: 'GET', path: '/forgot-password', need: 'public' },
    async ({ request, reply }) =>
      web.page(reply, 'forgot-password', {
        title: 'Reset your password',
        csrf: web.formToken(request, reply),
      }),
  );
  definePage(
    app,
    web,
    { method: 'POST', path: '/forgot-password', need: 'public', form: { email: EMAIL } },
    async ({ reply, form: f }) => {
      await members.requestPasswordReset(f.email);
      return web.page(reply, 'check-mail', {
        title: 'Check your mail',
        email: f.email.trim(),
        reset: true,
      });
    },
  );

  definePage(
    app,
    web,
    { method: 'GET', path: '/reset-password/:token', need: 'public', params: token },
    async ({ request, reply }) => {
      const valid =
        TOKEN.test(request.params.token) && (await members.resetLinkValid(request.params.token));
      return web.page(
        reply,
        'reset-password',
        {
          title: 'Choose a new password',
          csrf: web.formToken(request, reply),
          valid,
          token: request.params.token,
        },
        valid ? 200 : 400,
      );
    },
  );
  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/reset-password/:token',
      need: 'public',
      params: token,
      form: { password: PASSWORD },
    },
    async ({ request, reply, form: f }) => {
      const show = (error: string, status: number) =>
        web.page(
          reply,
          'reset-password',
          {
            title: 'Choose a new password',
            csrf: web.formToken(request, reply),
            valid: true,
            token: request.params.token,
            error,
          },
          status,
        );
      let memberId = '';
      const problem = TOKEN.test(request.params.token)
        ? await orShow(
            reply,
            async () => (memberId = await members.resetPassword(request.params.token, f.password)),
            show,
          )
        : show('This reset link is no longer valid; ask for a new one.', 400);
      if (problem) return problem;
      // Whoever knew the old password is signed out everywhere.
      await sessions.endAllFor({ kind: 'member', id: memberId });
      web.signOutCookie(reply);
      return web.redirect(reply, '/sign-in?reset=1');
    },
  );

  definePage(
    app,
    web,
    { method: 'GET', path: '/invitations/:token', need: 'public', params: token },
    async ({ request, reply }) => {
      const invitation = TOKEN.test(request.params.token)
        ? await members.invitation(request.params.token)
        : undefined;
      return web.page(
        reply,
        'invitation',
        {
          title: 'Join a team',
          csrf: web.formToken(request, reply),
          invitation,
          token: request.params.token,
        },
        invitation ? 200 : 400,
      );
    },
  );
  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/invitations/:token',
      need: 'public',
      params: token,
      form: { password: PASSWORD },
    },
    async ({ request, reply, form: f }) => {
      const invitation = TOKEN.test(request.params.token)
        ? await members.invitation(request.params.token)
        : undefined;
      const show = (error: string, status: number) =>
        web.page(
          reply,
          'invitation',
          {
            title: 'Join a team',
            csrf: web.formToken(request, reply),
            invitation,
            token: request.params.token,
            error,
          },
          status,
        );
      if (!invitation) return show('This invitation is no longer valid; ask for a new one.', 400);
      let memberId = '';
      const problem = await orShow(
        reply,
        async () =>
          (memberId = (await members.acceptInvitation(request.params.token, f.password, request.ip))
            .id),
        show,
      );
      if (problem) return problem;
      await web.signIn(reply, memberId);
      return web.redirect(reply, '/dashboard');
    },
  );
}
