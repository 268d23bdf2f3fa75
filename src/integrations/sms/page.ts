import type { FastifyInstance } from 'fastify';
import { escapeHtml, htmlPage, pageHeaders } from '../../platform/http/html.ts';
import { loopbackOnly } from '../../platform/http/loopback.ts';
import type { DevSmsOutbox, OutboxSms } from './outbox.ts';

const HEADERS = pageHeaders();
const STYLE = `main{max-width:44rem;margin:0 auto;padding:1.25rem}.banner{background:#fff4ce;border-radius:.5rem;padding:.5rem .75rem}
ul{list-style:none;padding:0}li{border-bottom:1px solid #dde3e8;padding:.6rem 0}.muted{color:#4b5563;font-size:.9rem}
p.sms{white-space:pre-wrap;margin:.25rem 0;font:15px/1.5 ui-monospace,monospace}`;
const BANNER =
  '<p class="banner">Development outbox: this server has no SMS_PROVIDER, so text messages are kept here instead of being sent.</p>';

const when = (d: Date) => new Date(d).toISOString().replace('T', ' ').slice(0, 19);

function listPage(messages: OutboxSms[]): string {
  const items = messages
    .map(
      (m) =>
        `<li><div class="muted">to <span class="to">${escapeHtml(m.to_number)}</span> · ${when(m.created_at)} UTC</div><p class="sms">${escapeHtml(m.body)}</p></li>`,
    )
    .join('');
  return htmlPage({
    title: 'Development SMS outbox',
    style: STYLE,
    body: `<main><h1>Development SMS outbox</h1>${BANNER}<ul>${items || '<li>No text message yet.</li>'}</ul></main>`,
  });
}

/**
 * `/dev/sms`: the development SMS outbox, mounted only when no SMS provider is configured; for this
 * machine's own requests only unless `anyone` (DEV_SMS_PAGE=on).
 */
export function registerDevSmsPage(
  app: FastifyInstance,
  outbox: DevSmsOutbox,
  opts: { anyone: boolean },
): void {
  app.get('/dev/sms', { onRequest: opts.anyone ? [] : [loopbackOnly] }, async (_request, reply) =>
    reply.headers(HEADERS).send(listPage(await outbox.list())),
  );
}
