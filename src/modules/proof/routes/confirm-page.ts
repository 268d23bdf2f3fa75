import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, htmlPage, pageHeaders, pageStylesheet } from '../../../platform/http/html.ts';
import { isAppError } from '../../../platform/errors.ts';
import { Assets } from '../../../platform/web/assets.ts';
import { FORM_BODY_LIMIT, FormProblem, parseForm } from '../../../platform/web/form.ts';
import type { ConfirmationService } from '../confirmations.ts';
import type { ConfirmationRow } from '../confirmations-repository.ts';

const STYLE = `body{background:#f5f6f8}main{max-width:34rem;margin:0 auto;padding:1.25rem}
h1{font-size:1.35rem;margin:.2rem 0 1rem}.card{background:#fff;border-radius:.75rem;padding:1rem 1.1rem;margin-bottom:1rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
button{font:inherit;font-weight:600;padding:.8rem 1rem;border-radius:.5rem;border:2px solid #14532d;width:100%;min-height:3rem;cursor:pointer}
.yes{background:#14532d;color:#fff}.no{background:#fff;color:#7f1d1d;border-color:#7f1d1d}
label{display:block;margin:.5rem 0 .25rem}textarea{font:inherit;width:100%;min-height:5rem;padding:.5rem}
.error{color:#7f1d1d;font-weight:600}`;

const ASSETS = new Assets({ 'confirm.css': Buffer.from(pageStylesheet(STYLE)) });
// Strict: no inline script or style at all; the page's stylesheet is ours; its forms post here.
const HEADERS = {
  ...pageHeaders({ formAction: 'self' }),
  'content-security-policy': `default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
};
const FORM = {
  answer: { max: 10, label: 'Answer' },
  note: { max: 500, multiline: true, label: 'What went wrong' },
} as const;

function render(title: string, body: string): string {
  return htmlPage({
    title,
    style: '',
    body: `<main>${body}</main>`,
    head: '<meta name="robots" content="noindex">',
    files: { css: [ASSETS.url('confirm.css')], js: [] },
  });
}

function outcome(row: ConfirmationRow): string {
  switch (row.state) {
    case 'confirmed':
      return 'Thank you: you confirmed you received this delivery.';
    case 'disputed':
      return 'Thank you: we recorded that you did not receive this delivery. Our team will contact you.';
    case 'accepted':
      return 'Our team has already settled this delivery. If something is wrong, contact the seller.';
    default:
      return '';
  }
}

function question(token: string, error?: string): string {
  const action = `/confirm/${escapeHtml(token)}`;
  return `<h1>Did you receive your delivery?</h1>
<div class="card"><p>The courier finished this delivery with a photo or signature instead of your delivery code. Please tell us whether you received it.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${action}"><input type="hidden" name="answer" value="confirm"><button class="yes" type="submit">Yes, I received it</button></form></div>
<div class="card"><form method="post" action="${action}"><input type="hidden" name="answer" value="dispute">
<label for="note">What went wrong (optional)</label><textarea id="note" name="note" maxlength="500"></textarea>
<p><button class="no" type="submit">No, I did not receive it</button></p></form></div>`;
}

const notFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .headers(HEADERS)
    .send(
      render(
        'Link not valid',
        '<h1>This link is not valid</h1><p>Check the link in your text message.</p>',
      ),
    );

/** A form from another site is refused: the page's own forms post from this origin. */
function crossSite(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== publicOrigin) return true;
  return request.headers['sec-fetch-site'] === 'cross-site';
}

/**
 * The recipient's page at `/confirm/{token}` (the token texted to them; no account): server-rendered,
 * no script, a strict CSP. It asks whether the delivery arrived; each answer is a form post. Any token
 * that is not a live one answers the same 404 page.
 */
export function registerConfirmPage(
  app: FastifyInstance,
  confirmations: ConfirmationService,
  publicOrigin: string,
): void {
  ASSETS.registerEach(app);
  app.get<{ Params: { token: string } }>('/confirm/:token', async (request, reply) => {
    const row = await confirmations.byToken(request.params.token);
    if (!row) return notFound(reply);
    reply.headers(HEADERS);
    if (row.state !== 'pending')
      return reply.send(render('Delivery', `<h1>Delivery</h1><p>${outcome(row)}</p>`));
    return reply.send(render('Did you receive your delivery?', question(request.params.token)));
  });

  app.post<{ Params: { token: string } }>(
    '/confirm/:token',
    { bodyLimit: FORM_BODY_LIMIT },
    async (request, reply) => {
      const token = request.params.token;
      const row = await confirmations.byToken(token);
      if (!row) return notFound(reply);
      reply.headers(HEADERS);
      if (crossSite(request, publicOrigin))
        return reply
          .code(403)
          .send(render('Refused', '<h1>Refused</h1><p>Open the link from your text message.</p>'));
      let answer: 'confirm' | 'dispute';
      let note: string;
      try {
        const form = parseForm(request.body, request.headers['content-type'], FORM);
        if (form.answer !== 'confirm' && form.answer !== 'dispute')
          throw new FormProblem(400, 'Choose one of the two answers.');
        answer = form.answer;
        note = form.note;
      } catch (err) {
        if (!(err instanceof FormProblem)) throw err;
        return reply
          .code(err.statusCode)
          .send(render('Did you receive your delivery?', question(token, err.message)));
      }
      try {
        const done = await confirmations.answer(token, answer, note);
        return reply.send(render('Delivery', `<h1>Delivery</h1><p>${outcome(done)}</p>`));
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return reply
          .code(err.statusCode)
          .send(
            render('Delivery', `<h1>Delivery</h1><p class="error">${escapeHtml(err.message)}</p>`),
          );
      }
    },
  );
}
