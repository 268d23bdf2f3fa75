import type { FastifyInstance } from 'fastify';
import { escapeHtml, htmlPage, pageHeaders } from '../../platform/http/html.ts';
import { loopbackOnly } from '../../platform/http/loopback.ts';
import type { DevOutbox, OutboxMail } from './outbox.ts';

const HEADERS = pageHeaders();
const STYLE = `main{max-width:44rem;margin:0 auto;padding:1.25rem}.banner{background:#fff4ce;border-radius:.5rem;padding:.5rem .75rem}
ul{list-style:none;padding:0}li{border-bottom:1px solid #dde3e8;padding:.6rem 0}.muted{color:#4b5563;font-size:.9rem}
pre{white-space:pre-wrap;background:#f3f4f6;padding:1rem;border-radius:.5rem;font:15px/1.5 ui-monospace,monospace}a{color:#1a4f8b}`;
const BANNER =
  '<p class="banner">Development outbox: this server has no SMTP_URL, so mail is kept here instead of being sent.</p>';

/** Escaped text with its http(s) links made clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<"]+/g, (url) => `<a href="${url}">${url}</a>`);
}

const when = (d: Date) => new Date(d).toISOString().replace('T', ' ').slice(0, 19);

function listPage(mails: OutboxMail[]): string {
  const items = mails
    .map(
      (m) =>
        `<li><a href="/dev/mail/${escapeHtml(m.id)}">${escapeHtml(m.subject)}</a><div class="muted">to ${escapeHtml(m.to_address)} · ${when(m.created_at)} UTC</div></li>`,
    )
    .join('');
  return htmlPage({
    title: 'Development outbox',
    style: STYLE,
    body: `<main><h1>Development outbox</h1>${BANNER}<ul>${items || '<li>No mail yet.</li>'}</ul></main>`,
  });
}

function mailPage(m: OutboxMail): string {
  return htmlPage({
    title: m.subject,
    style: STYLE,
    body: `<main><p><a href="/dev/mail">All mail</a></p><h1>${escapeHtml(m.subject)}</h1><p class="muted">To ${escapeHtml(m.to_address)} · ${when(m.created_at)} UTC</p><pre>${linkify(m.body)}</pre></main>`,
  });
}

/**
 * `/dev/mail`: the development outbox, mounted only when no SMTP server is configured; for this
 * machine's own requests only unless `anyone` (DEV_MAIL_PAGE=on).
 */
export function registerDevMailPages(
  app: FastifyInstance,
  outbox: DevOutbox,
  opts: { anyone: boolean },
): void {
  const onRequest = opts.anyone ? [] : [loopbackOnly];
  app.get('/dev/mail', { onRequest }, async (_request, reply) =>
    reply.headers(HEADERS).send(listPage(await outbox.list())),
  );
  app.get<{ Params: { id: string } }>('/dev/mail/:id', { onRequest }, async (request, reply) => {
    const mail = /^mail_[0-9A-Z]{26}$/.test(request.params.id)
      ? await outbox.get(request.params.id)
      : undefined;
    reply.headers(HEADERS);
    if (!mail)
      return reply.code(404).send(
        htmlPage({
          title: 'No such mail',
          style: STYLE,
          body: '<main><h1>No such mail</h1><p><a href="/dev/mail">All mail</a></p></main>',
        }),
      );
    return reply.send(mailPage(mail));
  });
}
