import type { FastifyInstance } from 'fastify';
import { escapeHtml, htmlPage, pageHeaders } from '../../platform/http/html.ts';
import { formatGhs } from '../../platform/money.ts';
import type { CheckoutLine } from './gateway.ts';
import type { SandboxCheckoutRow, SandboxGateway } from './sandbox.ts';

const HEADERS = pageHeaders({ formAction: 'self' });

const STYLE = `body{background:#f3f4f6;padding:1rem}
main{max-width:28rem;margin:1rem auto;background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
h1{font-size:1.1rem;font-weight:600;margin:0}.banner{background:#fff4ce;border-radius:.5rem;padding:.5rem .75rem;font-size:.875rem;margin:0 0 1rem}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 1rem}
table{width:100%;border-collapse:collapse;margin:0 0 1.25rem}th,td{padding:.5rem 0;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{text-align:left;font-weight:400}td{text-align:right;white-space:nowrap;padding-left:1rem}tfoot th,tfoot td{font-weight:700;border-bottom:0}
.each{display:block;color:#5b6572;font-size:.875rem}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}button{font:inherit;padding:.65rem 1.2rem;border-radius:.5rem;border:0;cursor:pointer}
#pay{background:#1a7f37;color:#fff}#decline{background:#e5e7eb;color:#1b1f24}`;

/** The bill behind the amount: one row per line (unit price when more than one), then the total. */
function billTable(lines: readonly CheckoutLine[], totalPesewas: number): string {
  const rows = lines
    .map((l) => {
      const each =
        l.quantity > 1
          ? `<span class="each">${l.quantity} × ${formatGhs(l.unitPesewas)}</span>`
          : '';
      return `<tr><th scope="row">${escapeHtml(l.description)}${each}</th><td>${formatGhs(l.quantity * l.unitPesewas)}</td></tr>`;
    })
    .join('');
  return `<table class="bill"><tbody>${rows}</tbody><tfoot><tr><th scope="row">Total</th><td>${formatGhs(totalPesewas)}</td></tr></tfoot></table>`;
}

function checkoutPage(row: SandboxCheckoutRow, raw: string): string {
  const id = escapeHtml(row.id);
  const total = formatGhs(row.amount_pesewas);
  const actions =
    raw === 'Unpaid'
      ? `<div class="actions"><form method="post" action="/sandbox/checkout/${id}/pay"><button id="pay" type="submit">Pay ${total}</button></form>
<form method="post" action="/sandbox/checkout/${id}/decline"><button id="decline" type="submit">Decline</button></form></div>`
      : `<p id="outcome">This checkout is ${escapeHtml(raw.toLowerCase())}.</p>`;
  return htmlPage({
    title: 'Sandbox checkout',
    style: STYLE,
    body: `<main><p class="banner">Sandbox payment: no real money moves.</p><h1>${escapeHtml(row.description)}</h1>
<p class="amount">${total}</p>${row.lines ? billTable(row.lines, row.amount_pesewas) : ''}${actions}</main>`,
  });
}

/** The sandbox gateway's hosted checkout: a page, and Pay / Decline as form posts or JSON calls. */
export function registerSandboxCheckout(app: FastifyInstance, gateway: SandboxGateway): void {
  app.get<{ Params: { id: string } }>('/sandbox/checkout/:id', async (request, reply) => {
    const row = await gateway.find(request.params.id);
    reply.headers(HEADERS);
    if (!row)
      return reply.code(404).send(
        htmlPage({
          title: 'Not found',
          style: STYLE,
          body: '<main><h1>No such checkout.</h1></main>',
        }),
      );
    return reply.send(checkoutPage(row, gateway.rawStatus(row)));
  });

  for (const [action, decision] of [
    ['pay', 'Paid'],
    ['decline', 'Declined'],
  ] as const) {
    app.post<{ Params: { id: string } }>(
      `/sandbox/checkout/:id/${action}`,
      async (request, reply) => {
        const decided = await gateway.decide(request.params.id, decision);
        const row = decided ?? (await gateway.find(request.params.id));
        if (!row)
          return reply.code(404).send({
            status: 'error',
            code: 'NOT_FOUND',
            message: 'No such checkout.',
            request_id: request.id,
          });
        if (decided) await gateway.sendCallback(decided);
        const status = gateway.rawStatus(row);
        if ((request.headers.accept ?? '').includes('application/json')) {
          return reply
            .code(decided ? 200 : 409)
            .send({ checkout_id: row.id, status, changed: Boolean(decided) });
        }
        return reply.redirect(
          decided?.status === 'Paid' ? row.return_url : row.cancellation_url,
          303,
        );
      },
    );
  }
}
